# Switchyard: build the server with pnpm from the lockfile, then run it on a slim Node image
# as a non-root user. `docker build -t switchyard .` then see compose.yaml and the README's
# "Running in production".

FROM node:20-slim AS build
WORKDIR /app
RUN npm install --global pnpm@9.15.9
# the manifests first, so the dependency layer is reused while only sources change
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml tsconfig.base.json ./
COPY packages/api/package.json packages/api/
COPY packages/client/package.json packages/client/
COPY packages/connectors/package.json packages/connectors/
COPY packages/dashboard/package.json packages/dashboard/
COPY packages/engine/package.json packages/engine/
COPY packages/sandbox/package.json packages/sandbox/
COPY packages/server/package.json packages/server/
RUN pnpm install --frozen-lockfile
COPY packages packages
RUN pnpm --filter @switchyard/server build \
  && pnpm install --frozen-lockfile --prod --offline

FROM node:20-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    SWITCHYARD_DATA_DIR=/data \
    SWITCHYARD_WORKERS=auto \
    LOG_FORMAT=json
WORKDIR /app
COPY --from=build --chown=node:node /app /app
# the embedded database's files, when DATABASE_URL is not set
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 4000
# the slim image has no curl: Node asks /readyz itself (503 while starting, draining or without a database)
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
WORKDIR /app/packages/server
# node itself is PID 1, so SIGTERM (docker stop) reaches it and drains the server
CMD ["node", "dist/main.js"]

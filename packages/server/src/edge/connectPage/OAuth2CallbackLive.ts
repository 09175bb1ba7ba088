import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Either, Option } from "effect"
import { SwitchyardConfig } from "../../platform/Config.js"
import { connectResultPage } from "./connectResultPage.js"
import { ProjectsRepo } from "../../features/projects/ProjectsRepo.js"
import { ConnectOAuth2 } from "../../features/connectSessions/ConnectOAuth2.js"

/**
 * `GET /connect/oauth2/{connector_key}/callback`: where the provider sends the end user's
 * browser after consent. Answers the connect page's result screen (200 linked, 400 not),
 * which reports to the opener or embedding page and follows the session's redirect_url.
 */
export const OAuth2CallbackLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const oauth = yield* ConnectOAuth2
    const projects = yield* ProjectsRepo
    const config = yield* SwitchyardConfig

    const frameOriginsOf = (projectId: string | null) =>
      projectId === null
        ? Effect.succeed<ReadonlyArray<string>>([])
        : Effect.map(projects.findProject(projectId), Option.match({
          onNone: () => [],
          onSome: (project) => project.connect_frame_origins
        }))

    yield* router.get(
      "/connect/oauth2/:connector_key/callback",
      Effect.gen(function*() {
        const request = yield* HttpServerRequest.HttpServerRequest
        const connectorKey = (yield* HttpRouter.params).connector_key ?? ""
        const url = new URL(request.url, config.publicUrl)
        const outcome = yield* Effect.either(oauth.finish(connectorKey, url))
        const page = Either.isRight(outcome)
          ? connectResultPage({
            status: "connected",
            accountId: outcome.right.account_id,
            connectorKey: outcome.right.connector_key,
            redirectUrl: outcome.right.redirect_url,
            frameOrigins: yield* frameOriginsOf(outcome.right.projectId)
          })
          : connectResultPage({
            status: "error",
            message: outcome.left.reason,
            connectorKey: outcome.left.connectorKey,
            frameOrigins: yield* frameOriginsOf(outcome.left.projectId)
          })
        const { "content-type": contentType, ...headers } = page.headers
        return HttpServerResponse.text(page.html, { status: Either.isRight(outcome) ? 200 : 400, contentType, headers })
      })
    )
  })
)

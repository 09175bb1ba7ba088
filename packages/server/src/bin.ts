#!/usr/bin/env node
/*
 * The `switchyard` binary of the installed package (`npx @switchyard/server <command>`):
 * `start` runs the server (main.js), `sandbox` the simulated providers (sandbox.js, the
 * sandbox package bundled beside the server in dist/), `demo` both with accounts linked
 * (demo.js), anything else is the admin CLI
 * (cli.js: keys, projects, --help, --version). Each is a module beside this one, imported
 * only when chosen, so `switchyard keys list` does not load the server.
 */

const commands: Readonly<Record<string, string>> = { start: "./main.js", sandbox: "./sandbox.js", demo: "./demo.js" }

// `sandbox <provider>` is the CLI's mock of one provider; `sandbox` alone the simulated providers
const mockOfOne = process.argv[2] === "sandbox" && process.argv.length > 3
const chosen = mockOfOne ? undefined : commands[process.argv[2] ?? ""]
if (chosen !== undefined) {
  // main.js, sandbox.js and demo.js read no arguments: unexpected ones are refused rather than ignored.
  if (process.argv.length > 3) {
    process.stderr.write(`switchyard: ${process.argv[2]} takes no arguments (configure it through the environment)\n`)
    process.exit(1)
  }
  await import(new URL(chosen, import.meta.url).href)
} else {
  await import(new URL("./cli.js", import.meta.url).href)
}

import { describe, expect, it } from "@effect/vitest"
import parsePrometheusTextFormat from "parse-prometheus-text-format"
import { exited, freePort, start, waitFor } from "./support/ServerProcess.js"

/** The delivered-attempts counter summed over the scrape's workers. */
const delivered = (text: string) =>
  parsePrometheusTextFormat(text)
    .find((family) => family.name === "switchyard_webhook_delivery_attempts_total")
    ?.metrics.filter((sample) => sample.labels?.outcome === "delivered")
    .reduce((sum, sample) => sum + Number(sample.value), 0)

describe("cluster metrics", () => {
  it("the primary sums its workers' metrics, on its metrics port and for a worker asking over IPC", async () => {
    const port = await freePort()
    const { DATABASE_URL: _unused, ...environment } = process.env
    const fleet = start("test/support/clusterMetricsScript.ts", [], { ...environment, METRICS_PORT: String(port) }, { inProcess: true })
    try {
      await waitFor(() => /^FLEET /m.test(fleet.output()), "the cluster's answers")
      let scraped: Response | undefined
      await waitFor(async () => {
        scraped = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(60_000) }).catch(() => undefined)
        return scraped !== undefined
      }, "the primary's metrics port")
      expect(scraped!.status).toBe(200)
      // each of the two workers counted one: the scrape shows the machine, not one worker
      expect(delivered(await scraped!.text())).toBe(2)
      const fromWorker = JSON.parse(/^FLEET (.*)$/m.exec(fleet.output())![1]!) as string
      expect(delivered(fromWorker)).toBe(2)
      expect((await fetch(`http://127.0.0.1:${port}/other`, { signal: AbortSignal.timeout(60_000) })).status).toBe(404)
    } finally {
      const stopped = exited(fleet.child)
      fleet.child.kill("SIGKILL")
      await stopped
    }
  }, 300_000)
})

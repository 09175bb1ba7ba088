import { describe, expect, it } from "@effect/vitest"
import parsePrometheusTextFormat from "parse-prometheus-text-format"
import { exited, start, waitFor } from "./support/ServerProcess.js"

/** The delivered-attempts counter summed over the scrape's workers. */
const delivered = (text: string) =>
  parsePrometheusTextFormat(text)
    .find((family) => family.name === "switchyard_webhook_delivery_attempts_total")
    ?.metrics.filter((sample) => sample.labels?.outcome === "delivered")
    .reduce((sum, sample) => sum + Number(sample.value), 0)

describe("cluster metrics", () => {
  it("the primary sums its workers' metrics, on its metrics port and for a worker asking over IPC", async () => {
    const fleet = start("test/support/clusterMetricsScript.ts", [], { ...process.env }, { inProcess: true })
    try {
      await waitFor(() => /^FLEET /m.test(fleet.output()), "the cluster's answers")
      const port = /^PORT (\d+)$/m.exec(fleet.output())![1]
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(60_000) })
      expect(scraped.status).toBe(200)
      // each of the two workers counted one: the scrape shows the machine, not one worker
      expect(delivered(await scraped.text())).toBe(2)
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

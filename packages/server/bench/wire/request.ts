/*
 * `tsx --conditions=switchyard-source bench/wire/request.ts`: CPU time of this whole process
 * (server, in-process sandbox and the fetch client together) per
 * `GET /unified/ats/applications?page_size=100`, sequential requests after a warm-up. Run it on two commits to compare; the sandbox and client share
 * of it is the same on both.
 */
import { realPages } from "./realPages.js"

const REQUESTS = 600

const main = async () => {
  const pages = await realPages([])
  const call = async () => {
    const answer = await pages.unified("/unified/ats/applications?page_size=100")
    if (answer.status !== 200 || answer.body.data.length !== 100) throw new Error(`answered ${answer.status}`)
  }
  for (let i = 0; i < 150; i++) await call()
  const rounds: Array<number> = []
  for (let round = 0; round < 5; round++) {
    const started = process.cpuUsage()
    for (let i = 0; i < REQUESTS / 5; i++) await call()
    const used = process.cpuUsage(started)
    rounds.push((used.user + used.system) / 1000 / (REQUESTS / 5))
  }
  rounds.sort((a, b) => a - b)
  console.log(`CPU per unified list of 100 (server + sandbox + client): median ${rounds[2]!.toFixed(2)} ms (rounds ${rounds.map((r) => r.toFixed(2)).join(", ")})`)
  await pages.close()
  process.exit(0)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})

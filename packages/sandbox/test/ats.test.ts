import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSandbox, type Sandbox } from "../src/index.js"
import { basic, fetchAllPages, json, parseLink } from "./support.js"

let sb: Sandbox
let auth: Record<string, string>
let write: Record<string, string>

beforeAll(async () => {
  sb = await startSandbox({ seed: 1234 })
  auth = { authorization: basic(sb.ats.apiKey) }
  write = { ...auth, "content-type": "application/json", "on-behalf-of": String(sb.ats.onBehalfOf) }
})
afterAll(async () => {
  await sb.close()
})

const get = (path: string, headers: Record<string, string> = auth): Promise<Response> => fetch(`${sb.ats.baseUrl}${path}`, { headers })
const send = (method: string, path: string, body: unknown, headers: Record<string, string> = write): Promise<Response> =>
  fetch(`${sb.ats.baseUrl}${path}`, { method, headers, body: JSON.stringify(body) })

describe("ATS auth", () => {
  it("answers 401 JSON without credentials, with a wrong key, or with a password", async () => {
    for (const headers of [{}, { authorization: basic("wrong") }, { authorization: basic(sb.ats.apiKey, "secret") }, { authorization: `Bearer ${sb.ats.apiKey}` }]) {
      const res = await get("/applications", headers)
      expect(res.status).toBe(401)
      expect(res.headers.get("content-type")).toContain("application/json")
      expect(await json(res)).toEqual({ message: "Invalid Basic Auth credentials" })
    }
    const ok = await get("/applications")
    expect(ok.status).toBe(200)
    expect(ok.headers.get("x-ratelimit-limit")).toBe("50")
  })

  it("serves attachment files without auth (signed-URL style)", async () => {
    const cand = await json<{ attachments: Array<{ url: string }> }>(await get("/candidates/200001"))
    const res = await fetch(cand.attachments[0]?.url as string)
    expect(res.status).toBe(200)
  })
})

describe("ATS pagination", () => {
  it("walks every application exactly once through Link rel=next, with rel=last on each page", async () => {
    const { items, pages, lastLinks } = await fetchAllPages<{ id: number }>(`${sb.ats.baseUrl}/applications?per_page=7`, auth)
    expect(items.length).toBe(260)
    expect(new Set(items.map((a) => a.id)).size).toBe(260)
    expect(pages).toBe(Math.ceil(260 / 7))
    expect(new Set(lastLinks)).toEqual(new Set([`${sb.ats.baseUrl}/applications?per_page=7&page=38`]))
  })

  it("defaults to 100 per page, keeps filters in the links and omits the header on a single page", async () => {
    const first = await get("/applications")
    expect(((await first.json()) as Array<unknown>).length).toBe(100)
    const links = parseLink(first.headers.get("link"))
    expect(links["next"]).toBe(`${sb.ats.baseUrl}/applications?page=2&per_page=100`)
    expect(links["last"]).toBe(`${sb.ats.baseUrl}/applications?page=3&per_page=100`)
    const last = await fetch(links["last"] as string, { headers: auth })
    expect(((await last.json()) as Array<unknown>).length).toBe(60)
    const lastLinks = parseLink(last.headers.get("link"))
    expect(lastLinks["next"]).toBeUndefined()
    expect(lastLinks["prev"]).toBe(`${sb.ats.baseUrl}/applications?page=2&per_page=100`)

    const filtered = await get("/applications?status=rejected&per_page=10")
    const fl = parseLink(filtered.headers.get("link"))
    expect(fl["next"]).toContain("status=rejected")
    const all = await fetchAllPages<{ status: string }>(`${sb.ats.baseUrl}/applications?status=rejected&per_page=10`, auth)
    expect(all.items.length).toBeGreaterThan(0)
    expect(all.items.every((a) => a.status === "rejected")).toBe(true)

    const single = await get("/rejection_reasons")
    expect(single.headers.get("link")).toBeNull()
    const skip = await get("/applications?per_page=50&skip_count=true")
    expect(parseLink(skip.headers.get("link"))["last"]).toBeUndefined()
  })

  it("walks candidates too and rejects per_page over 500", async () => {
    const { items } = await fetchAllPages<{ id: number; applications: Array<unknown> }>(`${sb.ats.baseUrl}/candidates?per_page=33`, auth)
    expect(items.length).toBe(120)
    expect(new Set(items.map((c) => c.id)).size).toBe(120)
    expect(items.every((c) => c.applications.length >= 1)).toBe(true)
    const big = await get("/applications?per_page=500")
    expect(((await big.json()) as Array<unknown>).length).toBe(260)
    const bad = await get("/applications?per_page=501")
    expect(bad.status).toBe(422)
    expect(await json(bad)).toMatchObject({ message: "Validation error", errors: [{ field: "per_page" }] })
  })

  it("filters by job_id, created_after and updated_after", async () => {
    const jobs = await json<Array<{ id: number }>>(await get("/jobs"))
    const jobId = jobs[0]?.id as number
    const byJob = await fetchAllPages<{ jobs: Array<{ id: number }> }>(`${sb.ats.baseUrl}/applications?job_id=${jobId}&per_page=100`, auth)
    expect(byJob.items.length).toBeGreaterThan(0)
    expect(byJob.items.every((a) => a.jobs[0]?.id === jobId)).toBe(true)
    const recent = await json<Array<{ applied_at: string }>>(await get("/applications?created_after=2024-06-01T00:00:00Z&per_page=500"))
    expect(recent.length).toBeGreaterThan(0)
    expect(recent.every((a) => a.applied_at >= "2024-06-01")).toBe(true)
    const none = await json<Array<unknown>>(await get("/applications?updated_after=2030-01-01T00:00:00Z"))
    expect(none).toEqual([])
    const bad = await get("/applications?created_after=yesterday")
    expect(bad.status).toBe(422)
  })
})

describe("ATS resources", () => {
  it("has stages per job, rejection reasons, users, sources", async () => {
    const jobs = await json<Array<{ id: number }>>(await get("/jobs"))
    expect(jobs.length).toBe(8)
    const stages = await json<Array<{ id: number; name: string; job_id: number; priority: number; interviews: Array<unknown> }>>(await get(`/jobs/${jobs[0]?.id}/stages`))
    expect(stages.map((s) => s.name)).toEqual(["Application Review", "Recruiter Phone Screen", "Take Home Test", "Face to Face", "Reference Check", "Offer"])
    expect(stages.every((s) => s.job_id === jobs[0]?.id)).toBe(true)
    const reasons = await json<Array<{ id: number; name: string; type: { id: number; name: string } }>>(await get("/rejection_reasons"))
    expect(reasons.length).toBeGreaterThan(3)
    expect(reasons[0]).toMatchObject({ id: expect.any(Number), name: expect.any(String), type: { id: expect.any(Number), name: expect.any(String) } })
    expect((await get("/users")).status).toBe(200)
    expect((await get("/sources")).status).toBe(200)
    expect((await get("/applications/1")).status).toBe(404)
  })

  it("links scorecards, scheduled interviews and offers to applications", async () => {
    const scorecards = await json<Array<{ id: number; application_id: number; interview_step: { id: number } }>>(await get("/scorecards?per_page=5"))
    expect(scorecards.length).toBe(5)
    const sc = scorecards[0] as { id: number; application_id: number }
    expect(await json(await get(`/scorecards/${sc.id}`))).toMatchObject({ id: sc.id, application_id: sc.application_id })
    const forApp = await json<Array<{ id: number }>>(await get(`/applications/${sc.application_id}/scorecards`))
    expect(forApp.map((x) => x.id)).toContain(sc.id)
    const viaQuery = await json<Array<{ id: number; interviewers: Array<{ scorecard_id: number | null }> }>>(await get(`/scheduled_interviews?application_id=${sc.application_id}`))
    const viaPath = await json<Array<{ id: number }>>(await get(`/applications/${sc.application_id}/scheduled_interviews`))
    expect(viaQuery.map((x) => x.id)).toEqual(viaPath.map((x) => x.id))
    expect(viaQuery.flatMap((x) => x.interviewers.map((i) => i.scorecard_id))).toContain(sc.id)
    const one = viaQuery[0] as { id: number }
    expect(await json(await get(`/scheduled_interviews/${one.id}`))).toMatchObject({ id: one.id, application_id: sc.application_id, start: { date_time: expect.any(String) } })

    const offers = await json<Array<{ id: number; application_id: number; status: string }>>(await get("/offers?status=accepted"))
    expect(offers.length).toBeGreaterThan(0)
    const offer = offers[0] as { id: number; application_id: number }
    expect(await json(await get(`/offers/${offer.id}`))).toMatchObject({ id: offer.id, status: "accepted" })
    const appOffers = await json<Array<{ id: number }>>(await get(`/applications/${offer.application_id}/offers`))
    expect(appOffers.map((o) => o.id)).toContain(offer.id)
    expect(await json(await get(`/applications/${offer.application_id}/offers/current_offer`))).toMatchObject({ id: offer.id })
    const app = await json<{ status: string }>(await get(`/applications/${offer.application_id}`))
    expect(app.status).toBe("hired")
  })

  it("keeps the application change history consistent with its state", async () => {
    const apps = await json<Array<{ id: number; status: string; current_stage: { id: number; name: string } | null; last_activity_at: string }>>(await get("/applications?per_page=500"))
    for (const app of apps.slice(0, 40)) {
      const changes = await json<Array<{ type: string; created_at: string; changes: Record<string, { to: unknown }> }>>(await get(`/applications/${app.id}/changes`))
      expect(changes[0]?.type).toBe("application_created")
      const moves = changes.filter((c) => c.type === "stage_change")
      if (app.status === "active" && app.current_stage !== null && moves.length > 0) expect((moves[moves.length - 1]?.changes["current_stage"]?.to as { id: number }).id).toBe(app.current_stage.id)
      if (app.status === "rejected") expect(changes.some((c) => c.type === "rejected")).toBe(true)
      if (app.status === "hired") expect(changes.some((c) => c.type === "hired")).toBe(true)
      expect(changes.every((c) => c.created_at <= app.last_activity_at)).toBe(true)
    }
  })
})

describe("ATS writes", () => {
  const activeApp = async (): Promise<{ id: number; candidate_id: number; jobs: Array<{ id: number }>; current_stage: { id: number }; last_activity_at: string }> => {
    const apps = await json<Array<{ id: number; candidate_id: number; prospect: boolean; status: string; jobs: Array<{ id: number }>; current_stage: { id: number; name: string } | null; last_activity_at: string }>>(await get("/applications?status=active&per_page=500"))
    const app = apps.find((a) => !a.prospect && a.current_stage !== null && a.current_stage.name === "Application Review")
    if (app === undefined) throw new Error("no active application in the first stage")
    return app as never
  }

  it("requires On-Behalf-Of", async () => {
    const app = await activeApp()
    const res = await send("PATCH", `/applications/${app.id}`, { source_id: 2 }, { ...auth, "content-type": "application/json" })
    expect(res.status).toBe(422)
    expect(await json(res)).toMatchObject({ errors: [{ field: "On-Behalf-Of" }] })
  })

  it("moves an application; the stage, last_activity_at, candidate.updated_at and history all change", async () => {
    const app = await activeApp()
    const stages = await json<Array<{ id: number; name: string }>>(await get(`/jobs/${app.jobs[0]?.id}/stages`))
    const to = stages[3] as { id: number; name: string }
    const wrong = await send("POST", `/applications/${app.id}/move`, { from_stage_id: to.id, to_stage_id: to.id })
    expect(wrong.status).toBe(422)
    const res = await send("POST", `/applications/${app.id}/move`, { from_stage_id: app.current_stage.id, to_stage_id: to.id })
    expect(res.status).toBe(200)
    const moved = await json<{ current_stage: { id: number }; last_activity_at: string }>(res)
    expect(moved.current_stage.id).toBe(to.id)
    expect(moved.last_activity_at > app.last_activity_at).toBe(true)
    const again = await json<{ current_stage: { id: number; name: string } }>(await get(`/applications/${app.id}`))
    expect(again.current_stage).toEqual({ id: to.id, name: to.name })
    const cand = await json<{ updated_at: string; last_activity: string }>(await get(`/candidates/${app.candidate_id}`))
    expect(cand.last_activity).toBe(moved.last_activity_at)
    const since = await json<Array<{ id: number }>>(await get(`/applications?updated_after=${encodeURIComponent(app.last_activity_at)}&per_page=500`))
    expect(since.map((a) => a.id)).toContain(app.id)
    const changes = await json<Array<{ type: string; changes: Record<string, { from: unknown; to: unknown }> }>>(await get(`/applications/${app.id}/changes`))
    expect(changes[changes.length - 1]).toMatchObject({ type: "stage_change", changes: { current_stage: { from: { id: app.current_stage.id }, to: { id: to.id } } } })
    const feed = await json<{ activities: Array<{ type: string }> }>(await get(`/candidates/${app.candidate_id}/activity_feed`))
    expect(feed.activities[0]?.type).toBe("stage_change")
  })

  it("patches source and referrer, then rejects and unrejects", async () => {
    const app = await activeApp()
    const patched = await json<{ source: { id: number }; credited_to: { id: number } }>(await send("PATCH", `/applications/${app.id}`, { source_id: 3, referrer: { type: "id", value: 4002 } }))
    expect(patched.source.id).toBe(3)
    expect(patched.credited_to.id).toBe(4002)
    expect((await send("PATCH", `/applications/${app.id}`, { source_id: 999 })).status).toBe(422)
    const rejected = await json<{ status: string; rejection_reason: { id: number }; rejected_at: string }>(await send("POST", `/applications/${app.id}/reject`, { rejection_reason_id: 106, notes: "Took another offer" }))
    expect(rejected).toMatchObject({ status: "rejected", rejection_reason: { id: 106 } })
    expect(rejected.rejected_at).not.toBeNull()
    expect((await send("POST", `/applications/${app.id}/reject`, {})).status).toBe(422)
    const list = await json<Array<{ id: number }>>(await get("/applications?status=rejected&per_page=500"))
    expect(list.map((a) => a.id)).toContain(app.id)
    const unrejected = await json<{ status: string }>(await send("POST", `/applications/${app.id}/unreject`, {}))
    expect(unrejected.status).toBe("active")
  })

  it("creates a candidate with an application and attachments; it shows in lists and its file downloads byte-exact", async () => {
    const pdf = Buffer.from("%PDF-1.4\n% uploaded by a test\n%%EOF\n")
    const res = await send("POST", "/candidates", {
      first_name: "Test",
      last_name: "Person",
      company: "Example Inc",
      email_addresses: [{ value: "test.person@example.org", type: "personal" }],
      tags: ["Uploaded"],
      applications: [{ job_id: 3002, source_id: 4, attachments: [{ filename: "cv.pdf", type: "resume", content: pdf.toString("base64"), content_type: "application/pdf" }] }]
    })
    expect(res.status).toBe(201)
    const cand = await json<{ id: number; application_ids: Array<number>; applications: Array<{ current_stage: { name: string }; attachments: Array<{ url: string }> }> }>(res)
    expect(cand.application_ids.length).toBe(1)
    expect(cand.applications[0]?.current_stage.name).toBe("Application Review")
    const file = await fetch(cand.applications[0]?.attachments[0]?.url as string)
    expect(file.headers.get("content-type")).toBe("application/pdf")
    expect(Buffer.from(await file.arrayBuffer()).equals(pdf)).toBe(true)
    const found = await json<Array<{ id: number }>>(await get(`/candidates?email=test.person@example.org`))
    expect(found.map((c) => c.id)).toEqual([cand.id])
    const all = await fetchAllPages<{ id: number }>(`${sb.ats.baseUrl}/candidates?per_page=500`, auth)
    expect(all.items[all.items.length - 1]?.id).toBe(cand.id)

    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])
    const up = await send("POST", `/candidates/${cand.id}/attachments`, { filename: "photo.png", type: "other", content: png.toString("base64"), content_type: "image/png" })
    expect(up.status).toBe(201)
    const upJson = await json<{ url: string; content_type: string }>(up)
    expect(upJson.content_type).toBe("image/png")
    const got = await fetch(upJson.url)
    expect(got.headers.get("content-type")).toBe("image/png")
    expect(Buffer.from(await got.arrayBuffer()).equals(png)).toBe(true)
    const cand2 = await json<{ attachments: Array<{ filename: string }> }>(await get(`/candidates/${cand.id}`))
    expect(cand2.attachments.map((a) => a.filename)).toEqual(["cv.pdf", "photo.png"])
    expect((await send("POST", `/candidates/${cand.id}/attachments`, { filename: "x.exe", type: "other", content: "AAAA", content_type: "application/x-msdownload" })).status).toBe(422)
    expect((await send("POST", "/candidates", { first_name: "No", last_name: "Apps", applications: [] })).status).toBe(422)
    expect((await send("POST", "/candidates", { first_name: "Bad", last_name: "Job", applications: [{ job_id: 1 }] })).status).toBe(422)

    const more = await send("POST", `/candidates/${cand.id}/applications`, { job_id: 3003 })
    expect(more.status).toBe(201)
    const after = await json<{ application_ids: Array<number> }>(await get(`/candidates/${cand.id}`))
    expect(after.application_ids.length).toBe(2)
  })

  it("creates, reads and patches notes on candidates and applications", async () => {
    const app = await activeApp()
    const created = await send("POST", `/candidates/${app.candidate_id}/activity_feed/notes`, { user_id: 4003, body: "First impression: great", visibility: "public" })
    expect(created.status).toBe(201)
    const note = await json<{ id: number; body: string; visibility: string; visiblity: string; user: { id: number } }>(created)
    expect(note).toMatchObject({ body: "First impression: great", visibility: "public", visiblity: "public", user: { id: 4003 } })
    const read = await json(await get(`/candidates/${app.candidate_id}/activity_feed/notes/${note.id}`))
    expect(read).toMatchObject({ id: note.id, body: "First impression: great" })
    const patched = await json<{ body: string; visibility: string; updated_at: string; created_at: string }>(await send("PATCH", `/candidates/${app.candidate_id}/activity_feed/notes/${note.id}`, { body: "Edited", visibility: "private" }))
    expect(patched).toMatchObject({ body: "Edited", visibility: "private" })
    expect(patched.updated_at > patched.created_at).toBe(true)
    const feed = await json<{ notes: Array<{ id: number; body: string }> }>(await get(`/candidates/${app.candidate_id}/activity_feed`))
    expect(feed.notes.find((n) => n.id === note.id)?.body).toBe("Edited")

    const appNote = await json<{ id: number; application_id: number }>(await send("POST", `/applications/${app.id}/notes`, { body: "About this application", visibility: "admin_only" }))
    expect(appNote.application_id).toBe(app.id)
    expect(await json(await get(`/applications/${app.id}/notes/${appNote.id}`))).toMatchObject({ body: "About this application" })
    expect(await json(await send("PATCH", `/applications/${app.id}/notes/${appNote.id}`, { body: "Changed" }))).toMatchObject({ body: "Changed" })
    const appNotes = await json<Array<{ id: number }>>(await get(`/applications/${app.id}/notes`))
    expect(appNotes.map((n) => n.id)).toContain(appNote.id)
    expect((await get(`/candidates/${app.candidate_id}/activity_feed/notes/1`)).status).toBe(404)
    expect((await send("POST", `/candidates/${app.candidate_id}/activity_feed/notes`, { user_id: 4003, body: "x", visibility: "everyone" })).status).toBe(422)
  })
})

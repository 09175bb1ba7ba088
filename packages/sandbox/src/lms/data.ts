import { DATA_START, DAY, SANDBOX_NOW } from "../clock.js"
import { rngFor } from "../prng.js"
import * as W from "../words.js"

/** The LMS's in-memory records (TalentLMS API v1 model). */

export interface LmsUser {
  id: number
  login: string
  first_name: string
  last_name: string
  email: string
  user_type: "SuperAdmin" | "Admin-Type" | "Trainer-Type" | "Learner-Type"
  timezone: string
  language: string
  status: "active" | "inactive"
  level: number
  points: number
  created_on: number
  last_updated: number
  bio: string
  branch_ids: Array<number>
  group_ids: Array<number>
}

export interface LmsUnit {
  id: number
  type: "Content" | "Video" | "Test" | "Assignment" | "Survey"
  name: string
}

export interface LmsCourse {
  id: number
  name: string
  code: string
  category_id: number
  description: string
  price: string
  status: "active" | "inactive"
  creation_date: number
  last_update_on: number
  creator_id: number
  certification: string
  certification_duration: string
  units: Array<LmsUnit>
}

export type CompletionStatus = "not_attempted" | "incomplete" | "completed"

export interface Enrollment {
  user_id: number
  course_id: number
  role: "learner" | "instructor"
  enrolled_on: number
  completed_on: number | null
  completion_status: CompletionStatus
  completion_percentage: number
  total_time_seconds: number
}

export interface LmsState {
  readonly users: Map<number, LmsUser>
  readonly courses: Map<number, LmsCourse>
  readonly enrollments: Array<Enrollment>
  readonly categories: Array<{ id: number; name: string; price: string; parent_category_id: string | null }>
  readonly branches: Array<{ id: number; name: string }>
  readonly groups: Array<{ id: number; name: string }>
  readonly next: { user: number; course: number }
}

const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, "")

export const generateLms = (seed: number, counts: { users: number; courses: number }): LmsState => {
  const state: LmsState = {
    users: new Map(),
    courses: new Map(),
    enrollments: [],
    categories: W.COURSE_CATEGORIES.map((name, i) => ({ id: i + 1, name, price: "&#36;0.00", parent_category_id: null })),
    branches: [{ id: 1, name: "headquarters" }, { id: 2, name: "field-sales" }],
    groups: [{ id: 1, name: "New Hires" }, { id: 2, name: "Managers" }, { id: 3, name: "Engineering" }],
    next: { user: 1, course: 1 }
  }
  const nUsers = Math.max(1, counts.users)
  for (let i = 0; i < nUsers; i++) {
    const rng = rngFor(seed, "lms-user", i)
    const id = state.next.user++
    const first = i === 0 ? "Sandbox" : rng.pick(W.FIRST_NAMES)
    const last = i === 0 ? "Admin" : rng.pick(W.LAST_NAMES)
    const created = DATA_START + Math.floor((i / nUsers) * (SANDBOX_NOW - DATA_START - 60 * DAY)) + rng.int(0, 86399) * 1000
    state.users.set(id, {
      id,
      login: i === 0 ? "admin" : `${slug(first)}.${slug(last)}${id}`,
      first_name: first,
      last_name: last,
      email: `${slug(first)}.${slug(last)}${id}@sandbox-company.example`,
      user_type: i === 0 ? "SuperAdmin" : i < 4 ? "Admin-Type" : i % 10 === 5 ? "Trainer-Type" : "Learner-Type",
      timezone: "(GMT +00:00) UTC",
      language: rng.pick(["en", "en", "en", "es", "de", "fr"]),
      status: i > 0 && rng.chance(0.08) ? "inactive" : "active",
      level: rng.int(1, 5),
      points: rng.int(0, 800),
      created_on: created,
      last_updated: created,
      bio: "",
      branch_ids: rng.chance(0.3) ? [rng.int(1, 2)] : [],
      group_ids: rng.sample([1, 2, 3], rng.int(0, 2))
    })
  }
  const nCourses = Math.max(1, counts.courses)
  let unitId = 1
  for (let c = 0; c < nCourses; c++) {
    const rng = rngFor(seed, "lms-course", c)
    const id = state.next.course++
    const base = W.COURSE_NAMES[c % W.COURSE_NAMES.length] as string
    const name = c < W.COURSE_NAMES.length ? base : `${base} ${Math.floor(c / W.COURSE_NAMES.length) + 1}`
    const created = DATA_START - rng.int(10, 200) * DAY
    const units: Array<LmsUnit> = []
    const nUnits = rng.int(3, 6)
    for (let u = 0; u < nUnits; u++) {
      const type = u === nUnits - 1 ? "Test" : rng.weighted([["Content", 5], ["Video", 3], ["Assignment", 1], ["Survey", 1]] as const)
      units.push({ id: unitId++, type, name: u === nUnits - 1 ? "Final assessment" : `Lesson ${u + 1}: ${rng.pick(["Overview", "Key concepts", "In practice", "Case study", "Common pitfalls", "Review"])}` })
    }
    state.courses.set(id, {
      id,
      name,
      code: `${name.split(/\s+/).map((w) => w[0]).join("").replace(/[^A-Za-z]/g, "").toUpperCase()}-${100 + c}`,
      category_id: rng.int(1, W.COURSE_CATEGORIES.length),
      description: `${name}: a short, practical course for everyone at the company.`,
      price: "&#36;0.00",
      status: c === nCourses - 1 && nCourses > 3 ? "inactive" : "active",
      creation_date: created,
      last_update_on: created + rng.int(1, 100) * DAY,
      creator_id: 1,
      certification: rng.chance(0.5) ? "Classic" : "",
      certification_duration: "Forever",
      units
    })
  }
  const courseIds = [...state.courses.keys()]
  for (const user of state.users.values()) {
    const rng = rngFor(seed, "lms-enrollments", user.id)
    if (user.user_type === "SuperAdmin") continue
    const role = user.user_type === "Trainer-Type" ? "instructor" : "learner"
    for (const courseId of rng.sample(courseIds, rng.int(0, Math.min(6, courseIds.length)))) {
      const enrolled = Math.max(user.created_on, (state.courses.get(courseId) as LmsCourse).creation_date) + rng.int(1, 40) * DAY
      if (enrolled > SANDBOX_NOW - DAY) continue
      const status: CompletionStatus = role === "instructor" ? "not_attempted" : rng.weighted([["completed", 45], ["incomplete", 35], ["not_attempted", 20]] as const)
      const pct = status === "completed" ? 100 : status === "incomplete" ? rng.int(1, 9) * 10 : 0
      const completed = status === "completed" ? Math.min(SANDBOX_NOW - 3600000, enrolled + rng.int(1, 30) * DAY) : null
      state.enrollments.push({
        user_id: user.id,
        course_id: courseId,
        role,
        enrolled_on: enrolled,
        completed_on: completed,
        completion_status: status,
        completion_percentage: pct,
        total_time_seconds: status === "not_attempted" ? 0 : rng.int(300, 14400)
      })
      user.last_updated = Math.max(user.last_updated, completed ?? enrolled)
    }
  }
  return state
}

import type { Enrollment, LmsCourse, LmsState, LmsUser } from "./data.js"
import { durationText, tlmsDate, unixSeconds } from "./dates.js"

/** How TalentLMS shows a completion status in `completion_status_formatted`. */
const FORMATTED_STATUS = { not_attempted: "Not attempted", incomplete: "In progress", completed: "Completed" } as const

/**
 * Records as TalentLMS shows them: ids and numbers as strings, its own date format, and URLs on
 * the account's site (`https://{domain}`).
 */
export class LmsViews {
  constructor(
    private readonly state: LmsState,
    private readonly site: string
  ) {}

  /** A user as `/users` lists them. */
  user(user: LmsUser): Record<string, unknown> {
    const site = this.site
    return {
      id: String(user.id),
      login: user.login,
      first_name: user.first_name,
      last_name: user.last_name,
      email: user.email,
      restrict_email: "0",
      user_type: user.user_type,
      timezone: user.timezone,
      language: user.language,
      status: user.status,
      deactivation_date: "",
      level: String(user.level),
      points: String(user.points),
      created_on: tlmsDate(user.created_on),
      last_updated: tlmsDate(user.last_updated),
      last_updated_timestamp: unixSeconds(user.last_updated),
      avatar: `${site}/pages/images/avatar/${user.id}.png`,
      bio: user.bio,
      login_key: `${site}/index/autologin/key:sandbox${user.id}`
    }
  }

  /** A course as `/courses` lists them. */
  course(course: LmsCourse): Record<string, unknown> {
    const site = this.site
    return {
      id: String(course.id),
      name: course.name,
      code: course.code,
      category_id: String(course.category_id),
      description: course.description,
      price: course.price,
      status: course.status,
      creation_date: tlmsDate(course.creation_date),
      last_update_on: tlmsDate(course.last_update_on),
      creator_id: String(course.creator_id),
      hide_from_catalog: "0",
      time_limit: "0",
      start_datetime: null,
      expiration_datetime: null,
      level: null,
      shared: "0",
      shared_url: "",
      avatar: `${site}/pages/images/course/${course.id}.png`,
      big_avatar: `${site}/pages/images/course/${course.id}_big.png`,
      certification: course.certification,
      certification_duration: course.certification_duration
    }
  }

  /** An enrollment's dates, completion and time spent. */
  progress(enrollment: Enrollment): Record<string, unknown> {
    return {
      enrolled_on: tlmsDate(enrollment.enrolled_on),
      enrolled_on_timestamp: unixSeconds(enrollment.enrolled_on),
      completed_on: enrollment.completed_on === null ? "" : tlmsDate(enrollment.completed_on),
      completed_on_timestamp: enrollment.completed_on === null ? "" : unixSeconds(enrollment.completed_on),
      completion_percentage: String(enrollment.completion_percentage),
      expired_on: "",
      expired_on_timestamp: null,
      total_time: durationText(enrollment.total_time_seconds),
      total_time_seconds: enrollment.total_time_seconds
    }
  }

  /** A user with their courses, branches, groups and the certificates of completed certified courses. */
  userDetail(user: LmsUser): Record<string, unknown> {
    const state = this.state
    const site = this.site
    const enrollments = state.enrollments.filter((enrollment) => enrollment.user_id === user.id)
    return {
      ...this.user(user),
      courses: enrollments.map((enrollment) => {
        const course = state.courses.get(enrollment.course_id) as LmsCourse
        return {
          id: String(course.id),
          name: course.name,
          role: enrollment.role,
          ...this.progress(enrollment),
          completion_status: enrollment.completion_status,
          completion_status_formatted: FORMATTED_STATUS[enrollment.completion_status],
          last_accessed_unit_url: enrollment.completion_status === "not_attempted" ? "" : `${site}/unit/view/id:${course.units[0]?.id ?? 0}`
        }
      }),
      branches: state.branches.filter((branch) => user.branch_ids.includes(branch.id)).map((branch) => ({ id: String(branch.id), name: branch.name })),
      groups: state.groups.filter((group) => user.group_ids.includes(group.id)).map((group) => ({ id: String(group.id), name: group.name })),
      certifications: enrollments
        .filter((enrollment) => enrollment.completion_status === "completed" && (state.courses.get(enrollment.course_id) as LmsCourse).certification !== "")
        .map((enrollment) => {
          const course = state.courses.get(enrollment.course_id) as LmsCourse
          return {
            course_id: String(course.id),
            course_name: course.name,
            unique_id: `${course.id}-${user.id}-sandbox`,
            issued_date: tlmsDate(enrollment.completed_on as number),
            issued_date_timestamp: unixSeconds(enrollment.completed_on as number),
            expiration_date: "",
            expiration_date_timestamp: "",
            download_url: `${site}/user/downloadcertification/course_id:${course.id},user_id:${user.id}`,
            public_url: `${site}/certification/${course.id}-${user.id}`
          }
        }),
      badges: []
    }
  }

  /** A course with its enrolled users (initial and last name), units, rules and prerequisites. */
  courseDetail(course: LmsCourse): Record<string, unknown> {
    const state = this.state
    const site = this.site
    return {
      ...this.course(course),
      users: state.enrollments
        .filter((enrollment) => enrollment.course_id === course.id)
        .map((enrollment) => {
          const user = state.users.get(enrollment.user_id) as LmsUser
          return { id: String(user.id), name: `${user.first_name.charAt(0)}. ${user.last_name}`, role: enrollment.role, ...this.progress(enrollment) }
        }),
      units: course.units.map((unit) => ({ id: String(unit.id), type: unit.type, name: unit.name, url: `${site}/unit/view/id:${unit.id}` })),
      rules: ["All units must be completed"],
      prerequisites: []
    }
  }
}

import { sendBytes } from "../http/responses.js"
import type { Route } from "../router.js"
import { bambooError } from "./errors.js"
import type { HrisContext } from "./hrisContext.js"
import { sendJsonOrXml, xmlEscape } from "./jsonOrXml.js"

/** An employee's documents: the list by category, and downloads. */

/** BambooHR's file dates: ISO 8601 to the second with a `+0000` offset. */
const fileDate = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+0000")

export const employeeFileRoutes = (context: HrisContext): ReadonlyArray<Route> => [
  context.route("GET", "/employees/:id/files/view", (ctx, params) => {
    const employee = context.employee(params["id"])
    const categories = context.state.categories.map((category) => ({
      id: category.id,
      name: category.name,
      canRenameCategory: "yes",
      canDeleteCategory: "yes",
      canUploadFiles: "yes",
      displayIfEmpty: "yes",
      files: employee.files
        .filter((file) => file.categoryId === category.id)
        .map((file) => ({
          id: file.id,
          name: file.name,
          originalFileName: file.originalFileName,
          size: file.size,
          dateCreated: fileDate(file.dateCreated),
          createdBy: file.createdBy,
          shareWithEmployee: file.shareWithEmployee,
          canRenameFile: "yes",
          canDeleteFile: "yes",
          canChangeShareWithEmployeeFieldValue: "yes"
        }))
    }))
    sendJsonOrXml(ctx, { employee: { id: employee.id }, categories }, () =>
      `<employee id="${employee.id}">${categories
        .map((category) => `<category id="${category.id}"><name>${xmlEscape(category.name)}</name>${category.files
          .map((file) => `<file id="${file.id}"><name>${xmlEscape(file.name)}</name><originalFileName>${xmlEscape(file.originalFileName)}</originalFileName><size>${file.size}</size><dateCreated>${file.dateCreated}</dateCreated><createdBy>${xmlEscape(file.createdBy)}</createdBy><shareWithEmployee>${file.shareWithEmployee}</shareWithEmployee></file>`)
          .join("")}</category>`)
        .join("")}</employee>`
    )
  }),
  context.route("GET", "/employees/:id/files/:fileId", (ctx, params) => {
    const employee = context.employee(params["id"])
    const listed = employee.files.find((file) => String(file.id) === params["fileId"])
    const store = context.files
    const file = listed === undefined ? undefined : store.get(listed.id)
    const bytes = listed === undefined ? undefined : store.bytes(listed.id)
    if (listed === undefined || file === undefined || bytes === undefined) throw bambooError(404, `File ${params["fileId"] ?? ""} not found`)
    sendBytes(ctx.res, 200, bytes, { "content-type": file.contentType, "content-disposition": `attachment; filename="${listed.originalFileName.replace(/"/g, "")}"` })
  })
]

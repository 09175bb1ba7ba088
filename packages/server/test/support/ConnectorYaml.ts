const tokenAuthentication = `authentication:
  - token:
      type: custom
      label: API token
      authorization:
        type: bearer
        token: $.credentials.token
      configFields:
        - key: token
          label: API token
          type: password
          required: true
          secret: true
`

/** A small valid custom connector document, varied by key, version, title and actions. */
export const connectorYaml = (options: {
  readonly key: string
  readonly version: string
  readonly title?: string
  readonly description?: string
  readonly category?: string
  readonly actions?: ReadonlyArray<string>
  /** The `authentication:` block (default: one `token` method with a `token` field; "" for none). */
  readonly authentication?: string
  /** Lines of an `info.verification` block, indented under it (default: none). */
  readonly verification?: ReadonlyArray<string>
}) => {
  const actions = options.actions ?? ["list_things", "get_thing"]
  return `StackOne: 1.0.0
info:
  title: ${options.title ?? `Custom ${options.key}`}
  key: ${options.key}
  version: ${options.version}
  description: ${options.description ?? "A custom connector for tests"}
  categories:
    - ${options.category ?? "ats"}
${options.verification === undefined ? "" : `  verification:\n${options.verification.map((line) => `    ${line}\n`).join("")}`}baseUrl: https://api.example.com/v1
resources: https://docs.example.com
${options.authentication ?? tokenAuthentication}scopeDefinitions:
  read:
    description: Read things
actions:
${actions.map((id) => `  - actionId: ${id}
    categories: [ats]
    actionType: ${id.startsWith("list") ? "list" : "get"}
    label: ${id.replace(/_/g, " ")}
    description: Does ${id}
    requiredScopes: [read]
    inputs:
      - name: id
        type: string
        in: path
        required: ${id.startsWith("list") ? "false" : "true"}
    steps:
      - stepId: fetch
        stepFunction:
          functionName: request
          parameters:
            url: /things/\${inputs.id}
            method: get
    result:
      data: $.steps.fetch.output.data
`).join("")}events:
  actions:
    - actionId: thing_changed
      actionType: event
      label: Thing changed
      steps: []
`
}

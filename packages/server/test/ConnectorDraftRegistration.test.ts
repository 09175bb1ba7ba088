import { expect, layer } from "@effect/vitest"
import { Effect, Either } from "effect"
import { draftConnectorFromText } from "../src/features/connectorBuilder/draftConnector.js"
import { accountBody, freshProject } from "./support/Fixtures.js"
import { SandboxProviders, SandboxServer } from "./support/SandboxLayer.js"

/*
 * A draft is a connector the server takes as it is: registered as a project's custom
 * connector through the API, linked to an account and run. The document describes, in
 * OpenAPI, the sandbox's BambooHR look-alike (Basic auth with the API key as the user,
 * answers in XML unless asked for JSON, the directory under `employees`), so the drafted
 * action meets a provider it was not written for by hand.
 */

const json = (schema: unknown) => ({ "application/json": { schema }, "application/xml": { schema: { type: "string" } } })

const sandboxHrDocument = {
  openapi: "3.0.3",
  info: { title: "Sandbox HR API", version: "1", description: "Employees of a BambooHR-like sandbox." },
  externalDocs: { url: "https://sandbox-hr.example/docs" },
  servers: [{
    url: "https://api.sandbox-hr.example/api/gateway.php/{companyDomain}/v1",
    variables: { companyDomain: { default: "acme", description: "The company's subdomain" } }
  }],
  components: {
    securitySchemes: { basic: { type: "http", scheme: "basic", description: "The API key as the user name, any password." } }
  },
  security: [{ basic: [] }],
  paths: {
    "/employees/directory": {
      get: {
        operationId: "getEmployeeDirectory",
        summary: "The employee directory",
        responses: {
          "200": {
            description: "The directory",
            content: json({
              type: "object",
              properties: {
                fields: { type: "array", items: { type: "object", properties: { id: { type: "string" }, name: { type: "string" } } } },
                employees: {
                  type: "array",
                  items: {
                    type: "object",
                    properties: {
                      id: { type: "string" },
                      displayName: { type: "string" },
                      firstName: { type: "string" },
                      lastName: { type: "string" },
                      jobTitle: { type: "string" },
                      workEmail: { type: "string" },
                      mobilePhone: { type: "string" },
                      department: { type: "string" },
                      photoUrl: { type: "string" }
                    }
                  }
                }
              }
            })
          }
        }
      }
    },
    "/meta/lists": {
      get: { operationId: "getMetaLists", summary: "List fields and their options", responses: { "200": { description: "ok", content: json({ type: "array", items: { type: "object" } }) } } }
    }
  }
}

layer(SandboxServer(4000), { excludeTestServices: true })("a drafted connector on the server", (it) => {
  it.effect("registers as a custom connector, links an account and runs its drafted actions against the provider", () =>
    Effect.gen(function*() {
      const sandbox = yield* SandboxProviders
      const { client } = yield* freshProject
      const draft = Either.getOrThrow(draftConnectorFromText(JSON.stringify(sandboxHrDocument)))

      const created = yield* client.connectors.create_connector({ urlParams: {}, payload: { yaml: draft.yaml } })
      expect(created).toMatchObject({
        id: "sandbox-hr@0.1.0~custom",
        owner: "custom",
        title: "Sandbox HR API",
        categories: ["hris"],
        documentation_url: "https://sandbox-hr.example/docs"
      })
      const connector = yield* client.connectors.get_connector({ path: { id: "sandbox-hr" }, urlParams: { expand: ["actions"] } })
      expect(connector.actions!.actions.map((action) => action.id)).toEqual(["hris_list_employees", "get_meta_lists"])
      expect(connector.authentication_methods).toEqual([{
        key: "basic",
        type: "custom",
        label: "basic (HTTP basic)",
        authorization_type: "basic",
        config_fields: [
          expect.objectContaining({ key: "companyDomain", required: true, secret: false }),
          expect.objectContaining({ key: "username", required: true, secret: false }),
          expect.objectContaining({ key: "password", required: true, secret: true })
        ]
      }])

      const account = yield* client.accounts.create_account({
        payload: accountBody({
          connector_key: "sandbox-hr",
          credentials: { companyDomain: sandbox.hris.companyDomain, username: sandbox.hris.apiKey, password: "x" },
          settings: { base_url: sandbox.hris.baseUrl }
        })
      })
      const rpc = (action: string) => client.actions.rpc_action({ headers: { "x-account-id": account.id }, payload: { action } })

      const employees = yield* rpc("hris_list_employees")
      const records = employees.data as ReadonlyArray<Record<string, unknown>>
      expect(records.length).toBeGreaterThan(0)
      expect(records[0]).toMatchObject({
        id: expect.any(String),
        remote_id: expect.any(String),
        first_name: expect.any(String),
        last_name: expect.any(String),
        display_name: expect.any(String),
        work_email: expect.stringContaining("@")
      })
      // the directory is answered whole: no cursor
      expect(employees.next ?? null).toBeNull()

      // an RPC action of an operation that matched no model passes the answer through
      const lists = yield* rpc("get_meta_lists")
      expect(Array.isArray(lists.data)).toBe(true)
    }))
})

import type { ParsedConnector } from "@switchyard/engine"
import { Effect, Option } from "effect"
import { CredentialCipher } from "../../platform/crypto/CredentialCipher.js"
import { InvalidConnectorProfile } from "./ConnectorProfileErrors.js"
import { ProfilesRepo, type SealedSetup, SetupValues } from "./ProfilesRepo.js"

const MAX_SETUP_BYTES = 16 * 1024

/** Every setupFields key the connector's authentication methods declare. */
export const setupFieldKeys = (connector: ParsedConnector): ReadonlySet<string> =>
  new Set(
    (connector.definition.authentication ?? []).flatMap((named) =>
      Object.values(named).flatMap((method) => (method.setupFields ?? []).map((field) => field.key))
    )
  )

/**
 * A profile's setup values: the connector's `setupFields`, i.e. the project's OAuth app
 * (client id and secret). Sealed like account credentials, written through the profile API,
 * never shown again; opened only to run an OAuth grant.
 */
export class ProfileSetup extends Effect.Service<ProfileSetup>()("Switchyard/ProfileSetup", {
  effect: Effect.gen(function*() {
    const repo = yield* ProfilesRepo
    const cipher = yield* CredentialCipher

    const openSealed = (sealed: Option.Option<SealedSetup>) =>
      Option.match(sealed, {
        onNone: () => Effect.succeed<typeof SetupValues.Type>({}),
        onSome: (setup) =>
          cipher.open(SetupValues, { keyId: setup.setup_key_id, ciphertext: setup.setup_ciphertext }).pipe(Effect.orDie)
      })

    /** The profile's setup values; empty when it has none. */
    const open = (projectId: string, profileId: string) => Effect.flatMap(repo.findSetup(projectId, profileId), openSealed)

    /**
     * Seals `changes` over what the profile holds: a given key replaces its value, an empty
     * value removes it. Keys the connector does not declare are refused, naming them.
     */
    const sealChanges = (
      connector: ParsedConnector,
      current: Readonly<Record<string, string>>,
      changes: Readonly<Record<string, string>>
    ) =>
      Effect.gen(function*() {
        const known = setupFieldKeys(connector)
        const unknown = Object.keys(changes).filter((key) => !known.has(key))
        if (unknown.length > 0) {
          return yield* new InvalidConnectorProfile({
            message: known.size === 0
              ? `setup: connector ${connector.definition.info.key} has no setup fields (got ${unknown.join(", ")})`
              : `setup: unknown field(s) ${unknown.join(", ")}; connector ${connector.definition.info.key} declares ${
                [...known].join(", ")
              }`
          })
        }
        const merged: Record<string, string> = { ...current }
        for (const [key, value] of Object.entries(changes)) {
          if (value === "") delete merged[key]
          else merged[key] = value
        }
        if (Buffer.byteLength(JSON.stringify(merged)) > MAX_SETUP_BYTES) {
          return yield* new InvalidConnectorProfile({ message: `setup must be at most ${MAX_SETUP_BYTES} bytes` })
        }
        const sealed = cipher.seal(merged)
        return { setup_ciphertext: sealed.ciphertext, setup_key_id: sealed.keyId, setup_keys: Object.keys(merged).sort() }
      })

    return { open, sealChanges } as const
  }),
  dependencies: [ProfilesRepo.Default, CredentialCipher.Default]
}) {}

import { MIN_SECRET_LENGTH, redactText, secretForms } from "../redact.js"

/**
 * The credential values one run knows: those of the account, and those it derives (a Basic
 * token, a fetched access token). Redaction uses their URL-encoded forms too.
 */
export class RunSecrets {
  private forms: ReadonlyArray<string> | undefined

  constructor(private readonly values: Set<string>) {}

  add(secret: string): void {
    if (secret.length >= MIN_SECRET_LENGTH && !this.values.has(secret)) {
      this.values.add(secret)
      this.forms = undefined
    }
  }

  /** Handed to the transport with every request, so its raw captures and errors are redacted too. */
  list(): Array<string> {
    return [...this.values]
  }

  textForms(): ReadonlyArray<string> {
    return (this.forms ??= secretForms(this.values))
  }

  redact(text: string): string {
    return redactText(text, this.textForms())
  }
}

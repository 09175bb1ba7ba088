import type { ConnectorOwner, VerificationLevel } from "@switchyard/api"

/** Words for the connector catalog's codes, so the views read the same everywhere. */

export const ownerLabel = (owner: ConnectorOwner) => owner === "builtin" ? "Built-in" : "Custom"

export const verificationLabel: Record<VerificationLevel, string> = {
  contract: "Contract",
  documentation: "Documentation",
  community: "Community"
}

/** What each level means, from the API's description, for a title or a note. */
export const verificationMeaning: Record<VerificationLevel, string> = {
  contract: "checked against the provider's published OpenAPI document",
  documentation: "checked against a look-alike of the provider built from its documentation pages",
  community: "not checked by the platform"
}

/** Checked levels read green; community is not a fault, only unchecked, so it stays neutral. */
export const verificationTone = (level: VerificationLevel) => level === "community" ? "neutral" as const : "good" as const

const categoryNames: Record<string, string> = {
  ats: "ATS",
  hris: "HRIS",
  crm: "CRM",
  lms: "LMS",
  iam: "IAM",
  ticketing: "Ticketing",
  documents: "Documents",
  marketing: "Marketing",
  accounting: "Accounting",
  messaging: "Messaging"
}

/** `hris` → HRIS; a category the dashboard does not know reads as it is written. */
export const categoryLabel = (category: string) => categoryNames[category.toLowerCase()] ?? category

/** An authentication method in words: its label, else its type (`oauth2`, `custom`…). */
export const authLabel = (method: { readonly label: string | null; readonly type: string; readonly key: string }) =>
  method.label ?? (method.type === "custom" ? method.key : method.type)

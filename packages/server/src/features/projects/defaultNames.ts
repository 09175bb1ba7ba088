/** What the first start names the organization and project it creates (Bootstrap), and what a project nobody named is called. */
export const DEFAULT_ORGANIZATION = "Default organization"
export const DEFAULT_PROJECT = "Default project"

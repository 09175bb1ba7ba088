/** Types for mapApplication.mjs (plain JavaScript, as a user would write it). */
export declare const mapApplication: (application: Record<string, any>) => Record<string, unknown>

declare module "parse-prometheus-text-format" {
  export interface ParsedSample {
    readonly value?: string
    readonly labels?: Readonly<Record<string, string>>
    readonly buckets?: Readonly<Record<string, string>>
    readonly count?: string
    readonly sum?: string
  }
  export interface ParsedFamily {
    readonly name: string
    readonly help: string
    readonly type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED"
    readonly metrics: ReadonlyArray<ParsedSample>
  }
  const parsePrometheusTextFormat: (text: string) => Array<ParsedFamily>
  export default parsePrometheusTextFormat
}

import { type Evaluator } from "../evaluate.js"
import { type FieldPlan } from "../mapping.js"

/* What a step runs: its kind and parameters, with the connector's expressions compiled. */

export interface ArgPlan {
  readonly name: string
  readonly in: "query" | "body" | "headers" | "path"
  readonly value: Evaluator
  readonly condition: Evaluator | undefined
  /** Body or query arg whose object value is merged in (instead of set under `name`). */
  readonly spread: boolean
}

export interface CustomErrorPlan {
  readonly receivedStatus: number
  readonly targetStatus: number
  readonly message: Evaluator | undefined
  readonly condition: Evaluator | undefined
}

/** Reads `response.dataKey` / `nextKey` out of a response body. */
export type BodyReader =
  | { readonly _tag: "Key"; readonly keys: ReadonlyArray<string> }
  | { readonly _tag: "Expression"; readonly evaluate: Evaluator }

/**
 * `response.format: xml`: the answer is read as XML into a tree (elements as keys, text as
 * values, attributes under `@_name`) before `dataKey`, `customErrors` or any mapping sees it.
 */
export interface XmlReading {
  /** Elements that are always lists, even when the provider sends one or none (`response.arrays`). */
  readonly arrays: ReadonlySet<string>
}

export interface HttpPlan {
  readonly method: Evaluator | undefined
  readonly url: Evaluator | undefined
  /** `parameters.server`: one of the connector's `servers`, which `url` is relative to. */
  readonly server: string | undefined
  /** How the answer's body is read: as the transport gives it (JSON parsed), or as XML. */
  readonly xml: XmlReading | undefined
  readonly args: ReadonlyArray<ArgPlan>
  readonly dataKey: BodyReader | undefined
  readonly nextKey: BodyReader | undefined
  readonly customErrors: ReadonlyArray<CustomErrorPlan>
  /** `parameters.bodyType: form` sends body args form-encoded. */
  readonly formBody: boolean
  /**
   * The connector text fixes the URL's origin (a literal, or `https://host/...${…}`).
   * Otherwise an absolute URL must share the base URL's origin: inputs must never point
   * the account's credentials at another host.
   */
  readonly staticOrigin: boolean
}

export interface IteratorPlan {
  readonly key: string | undefined
  readonly in: "query" | "body" | "headers" | "url"
  /** Start cursor; default `inputs.cursor` when the action declares a `cursor` input. */
  readonly value: Evaluator | undefined
}

export type StepKind =
  | { readonly _tag: "request"; readonly http: HttpPlan }
  | {
    readonly _tag: "paginated_request"
    readonly http: HttpPlan
    readonly iterator: IteratorPlan | undefined
    readonly maxPages: Evaluator | undefined
  }
  | {
    readonly _tag: "map_fields"
    readonly dataSource: Evaluator
    readonly fields: ReadonlyArray<FieldPlan> | undefined
    readonly aliases: ReadonlyArray<string>
  }
  | {
    readonly _tag: "typecast"
    readonly dataSource: Evaluator
    readonly fields: ReadonlyArray<{ readonly key: string; readonly type: string | undefined }>
  }
  | { readonly _tag: "static_values"; readonly values: Evaluator }
  | { readonly _tag: "group_data"; readonly stepIds: ReadonlyArray<string>; readonly isSingleRecord: boolean }
  | {
    readonly _tag: "download_file"
    readonly http: HttpPlan
    /** The connector's declared media type and file name; the provider's headers otherwise. */
    readonly contentType: Evaluator | undefined
    readonly fileName: Evaluator | undefined
  }
  | {
    readonly _tag: "upload_file"
    readonly http: HttpPlan
    readonly content: Evaluator | undefined
    readonly contentType: Evaluator | undefined
    readonly fileName: Evaluator | undefined
    readonly encoding: Evaluator | undefined
  }
  | {
    readonly _tag: "mcp_request"
    readonly url: Evaluator | undefined
    readonly staticOrigin: boolean
    readonly method: Evaluator
    readonly name: Evaluator | undefined
    readonly arguments: Evaluator | undefined
    readonly cursor: Evaluator | undefined
  }

export interface StepPlan {
  readonly stepId: string
  readonly path: string
  readonly functionName: string
  readonly condition: Evaluator | undefined
  readonly ignoreError: boolean
  readonly kind: StepKind
}

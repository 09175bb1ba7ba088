import { Either, Option, ParseResult, Schema, SchemaAST as AST } from "effect"

/*
 * A schema's encoder compiled once into plain closures: it accepts and rejects what
 * `Schema.encode` (default options) accepts and rejects, and gives a value whose JSON is the
 * JSON of what `Schema.encode` gives, up to the order of object keys. It skips what makes
 * `ParseResult` slow on a large page: an `Either` per field, issue trees, effects, and a
 * copy of every object. A plain object that encodes to itself (no excess key, nothing
 * changed below it) is given back as it is; one with excess keys is copied without them,
 * as encoding drops them. It does not say what is wrong: the caller asks `Schema.encode`
 * again for the issues when a value does not conform. One difference is left on purpose: a
 * plain object's non-enumerable own keys are not seen (`ParseResult` reads them); answers are
 * built from JSON and by spreading, which make none.
 *
 * A node whose encoding this module does not reproduce (transformations, declarations,
 * nodes with their own parse options, unions that pick a member by a literal tag, index
 * signatures not keyed by string) makes the whole schema uncompilable: its answers keep
 * going through `Schema.encode`.
 */

/** What a compiled encoder returns for a value that does not conform to the schema. */
export const Mismatch: unique symbol = Symbol.for("@switchyard/server/Wire/Mismatch")
export type Mismatch = typeof Mismatch

/** The encoded form of `input` (possibly `input` itself), or `Mismatch`. */
export type Encoder = (input: unknown) => unknown

/**
 * Primitive schemas and their unions (`optionalNullable(Schema.String)` is string, null or
 * undefined), tested inline by `acceptsLeaf` instead of a closure per member.
 */
interface Leaf {
  readonly any: boolean
  readonly string: boolean
  readonly number: boolean
  readonly boolean: boolean
  readonly null: boolean
  readonly undefined: boolean
  readonly literals: ReadonlySet<unknown> | null
}

const leaf = (accepts: Partial<Omit<Leaf, "literals">>, literals: ReadonlyArray<unknown> = []): Leaf => ({
  any: accepts.any ?? false,
  string: accepts.string ?? false,
  number: accepts.number ?? false,
  boolean: accepts.boolean ?? false,
  null: accepts.null ?? false,
  undefined: accepts.undefined ?? false,
  literals: literals.length === 0 ? null : new Set(literals)
})

const acceptsLeaf = (leaf: Leaf, value: unknown): boolean => {
  if (leaf.any) return true
  switch (typeof value) {
    case "string":
      return leaf.string || (leaf.literals !== null && leaf.literals.has(value))
    case "number":
      return leaf.number || (leaf.literals !== null && leaf.literals.has(value))
    case "boolean":
      return leaf.boolean || (leaf.literals !== null && leaf.literals.has(value))
    case "undefined":
      return leaf.undefined
    case "object":
      return value === null && leaf.null
    default:
      return leaf.literals !== null && leaf.literals.has(value)
  }
}

const mergeLeaves = (leaves: ReadonlyArray<Leaf>): Leaf =>
  leaf(
    {
      any: leaves.some((one) => one.any),
      string: leaves.some((one) => one.string),
      number: leaves.some((one) => one.number),
      boolean: leaves.some((one) => one.boolean),
      null: leaves.some((one) => one.null),
      undefined: leaves.some((one) => one.undefined)
    },
    leaves.flatMap((one) => one.literals === null ? [] : [...one.literals])
  )

/** A node encoded as itself when it passes `test` (with its `leaf` when it is one), or an encoder. */
type Compiled =
  | { readonly _tag: "Check"; readonly test: (input: unknown) => boolean; readonly leaf: Leaf | null }
  | { readonly _tag: "Encode"; readonly encode: Encoder }

const checkOf = (test: (input: unknown) => boolean): Compiled => ({ _tag: "Check", test, leaf: null })
const leafOf = (accepts: Leaf): Compiled => ({ _tag: "Check", test: (input) => acceptsLeaf(accepts, input), leaf: accepts })

class Unsupported {
  constructor(readonly reason: string) {}
}

const asEncoder = (node: Compiled): Encoder => {
  if (node._tag === "Encode") return node.encode
  const test = node.test
  return (input) => test(input) ? input : Mismatch
}

/** The same answer as `asEncoder(node)(input) !== Mismatch`, without a call for leaves. */
const passes = (leaves: ReadonlyArray<Leaf | null>, tests: ReadonlyArray<((input: unknown) => boolean) | null>) =>
(i: number, value: unknown): boolean => {
  const accepts = leaves[i]
  return accepts !== null && accepts !== undefined ? acceptsLeaf(accepts, value) : tests[i]!(value)
}

const hasOwn = Object.prototype.hasOwnProperty
const isRecord = (input: unknown): input is Record<string, unknown> =>
  typeof input === "object" && input !== null && !Array.isArray(input)

/** Keys of `Object.prototype`: a plain object reads them without owning them. */
const inheritedNames = new Set(Object.getOwnPropertyNames(Object.prototype))

/** `ParseResult` tries a union's members in order, unless one of them carries a literal tag. */
const hasLiteralTag = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures.some((ps) => !ps.isOptional && AST.isLiteral(AST.typeAST(ps.type)))
    case "TupleType":
      return ast.elements.some((element) => !element.isOptional && AST.isLiteral(AST.typeAST(element.type)))
    case "Refinement":
      return hasLiteralTag(ast.from)
    case "Suspend":
      return hasLiteralTag(ast.f())
    case "Transformation":
      return hasLiteralTag(ast.to)
    case "Declaration":
      return Option.match(AST.getSurrogateAnnotation(ast), { onNone: () => false, onSome: hasLiteralTag })
    default:
      return false
  }
}

const compileTypeLiteral = (ast: AST.TypeLiteral, go: (ast: AST.AST) => Compiled): Compiled => {
  if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
    return checkOf((input) => input !== null && input !== undefined)
  }
  const names: Array<string> = []
  const optional: Array<boolean> = []
  const leaves: Array<Leaf | null> = []
  const tests: Array<((input: unknown) => boolean) | null> = []
  const encoders: Array<Encoder | null> = []
  // a declared name to its position, in an object without prototype (so any name is a plain key)
  const slots: Record<string, number> = Object.create(null)
  for (const ps of ast.propertySignatures) {
    if (typeof ps.name !== "string") throw new Unsupported(`symbol key ${String(ps.name)}`)
    const node = go(ps.type)
    slots[ps.name] = names.length
    names.push(ps.name)
    optional.push(ps.isOptional)
    leaves.push(node._tag === "Check" ? node.leaf : null)
    tests.push(node._tag === "Check" ? node.test : null)
    encoders.push(node._tag === "Encode" ? node.encode : null)
  }
  const indexes = ast.indexSignatures.map((signature) => {
    if (signature.parameter._tag !== "StringKeyword") {
      throw new Unsupported(`index signature keyed by ${signature.parameter._tag}`)
    }
    return asEncoder(go(signature.type))
  })
  const count = names.length
  const indexCount = indexes.length
  const required = optional.filter((isOptional) => !isOptional).length
  const shadowsPrototype = names.some((name) => inheritedNames.has(name))
  const checks = passes(leaves, tests)

  /** `ParseResult`'s own walk: the declared keys in order, then the index signatures' keys. */
  const copy = (input: Record<string, unknown>): unknown => {
    const output: Record<string, unknown> = {}
    for (let i = 0; i < count; i++) {
      const name = names[i]!
      if (optional[i] && !hasOwn.call(input, name)) continue
      const value = input[name]
      const encode = encoders[i]
      if (encode === null) {
        if (!checks(i, value)) return Mismatch
        output[name] = value
      } else {
        const encoded = encode(value)
        if (encoded === Mismatch) return Mismatch
        output[name] = encoded
      }
    }
    for (let j = 0; j < indexCount; j++) {
      for (const key of Object.keys(input)) {
        const encoded = indexes[j]!(input[key])
        if (encoded === Mismatch) return Mismatch
        if (slots[key] === undefined) output[key] = encoded
      }
    }
    return output
  }

  return {
    _tag: "Encode",
    encode: (input) => {
      if (!isRecord(input)) return Mismatch
      const proto = Object.getPrototypeOf(input)
      if ((proto !== Object.prototype && proto !== null) || shadowsPrototype) return copy(input)
      // A plain object is walked by its own keys (providers leave most declared fields out)
      // and given back as it is unless encoding changes it: an excess key to drop, or a
      // nested value that encodes to another value.
      let changed = false
      let present = 0
      for (const key in input) {
        const value = input[key]
        const i = slots[key]
        if (i === undefined) {
          if (indexCount === 0) {
            changed = true
            continue
          }
          // encoding assigns each key to a new object, where "__proto__" is not an own key
          if (key === "__proto__") changed = true
          for (let j = 0; j < indexCount; j++) {
            const encoded = indexes[j]!(value)
            if (encoded === Mismatch) return Mismatch
            if (encoded !== value) changed = true
          }
          continue
        }
        if (!optional[i]) present++
        const accepts = leaves[i]!
        if (accepts !== null) {
          if (!acceptsLeaf(accepts, value)) return Mismatch
        } else {
          const encode = encoders[i]
          if (encode === null) {
            if (!tests[i]!(value)) return Mismatch
          } else {
            const encoded = encode(value)
            if (encoded === Mismatch) return Mismatch
            if (encoded !== value) changed = true
          }
        }
        for (let j = 0; j < indexCount; j++) if (indexes[j]!(value) === Mismatch) return Mismatch
      }
      if (present < required) {
        // a missing required key reads as undefined, which its schema may accept
        for (let i = 0; i < count; i++) {
          if (optional[i] || hasOwn.call(input, names[i]!)) continue
          const encode = encoders[i]
          if (encode === null ? !checks(i, undefined) : encode(undefined) === Mismatch) return Mismatch
        }
      }
      return changed ? copy(input) : input
    }
  }
}

const compileTupleType = (ast: AST.TupleType, go: (ast: AST.AST) => Compiled): Compiled => {
  const elements = ast.elements.map((element) => asEncoder(go(element.type)))
  const elementOptional = ast.elements.map((element) => element.isOptional)
  const [head, ...tail] = ast.rest.map((rest) => asEncoder(go(rest.type)))
  const required = elementOptional.filter((isOptional) => !isOptional).length + tail.length
  const bounded = head === undefined

  /** `ParseResult`'s own walk: elements, rest, then the elements after the rest. */
  const copy = (input: ReadonlyArray<unknown>): unknown => {
    const length = input.length
    if (length < required || (bounded && length > elements.length)) return Mismatch
    const output: Array<unknown> = []
    let i = 0
    for (; i < elements.length; i++) {
      if (length < i + 1 && elementOptional[i]) continue
      const encoded = elements[i]!(input[i])
      if (encoded === Mismatch) return Mismatch
      output.push(encoded)
    }
    if (head !== undefined) {
      for (; i < length - tail.length; i++) {
        const encoded = head(input[i])
        if (encoded === Mismatch) return Mismatch
        output.push(encoded)
      }
      for (let j = 0; j < tail.length; j++) {
        if (length < i + j + 1) continue
        const encoded = tail[j]!(input[i + j])
        if (encoded === Mismatch) return Mismatch
        output.push(encoded)
      }
    }
    return output
  }

  if (elements.length > 0 || head === undefined || tail.length > 0) {
    return { _tag: "Encode", encode: (input) => Array.isArray(input) ? copy(input) : Mismatch }
  }
  // `Schema.Array(item)`: given back as it is unless an item encodes to another value
  const item = head
  const itemNode = go(ast.rest[0]!.type)
  const itemLeaf = itemNode._tag === "Check" ? itemNode.leaf : null
  return {
    _tag: "Encode",
    encode: (input) => {
      if (!Array.isArray(input)) return Mismatch
      let changed = false
      for (let i = 0; i < input.length; i++) {
        const value = input[i]
        if (itemLeaf !== null) {
          if (!acceptsLeaf(itemLeaf, value)) return Mismatch
          continue
        }
        const encoded = item(value)
        if (encoded === Mismatch) return Mismatch
        if (encoded !== value) changed = true
      }
      return changed ? copy(input) : input
    }
  }
}

const compileUnion = (ast: AST.Union, go: (ast: AST.AST) => Compiled): Compiled => {
  if (ast.types.some(hasLiteralTag)) throw new Unsupported("union of members tagged by a literal")
  const members = ast.types.map(go)
  const leaves = members.flatMap((member) => member._tag === "Check" && member.leaf !== null ? [member.leaf] : [])
  if (leaves.length === members.length) return leafOf(mergeLeaves(leaves))
  if (members.every((member) => member._tag === "Check")) {
    const tests = members.map((member) => (member as { readonly test: (input: unknown) => boolean }).test)
    return checkOf((input) => tests.some((test) => test(input)))
  }
  // the first member that accepts the value encodes it, as in `ParseResult`
  const encoders = members.map(asEncoder)
  return {
    _tag: "Encode",
    encode: (input) => {
      for (const encode of encoders) {
        const encoded = encode(input)
        if (encoded !== Mismatch) return encoded
      }
      return Mismatch
    }
  }
}

const compileRefinement = (ast: AST.Refinement, go: (ast: AST.AST) => Compiled): Compiled => {
  const from = go(ast.from)
  // encoding checks the filter on the value it encodes: only values encoded as themselves here
  if (from._tag !== "Check") throw new Unsupported("refinement of a schema that encodes to another value")
  const test = from.test
  return checkOf((input) => test(input) && Option.isNone(ast.filter(input, AST.defaultParseOption, ast)))
}

/**
 * Compiles the encoder of `schema` (its Type values to its Encoded form, as `Schema.encode`
 * with default options gives them), or says which node it cannot reproduce.
 */
export const compileEncoder = (schema: Schema.Schema.Any): Either.Either<Encoder, string> => {
  const memo = new Map<AST.AST, Compiled>()
  const go = (ast: AST.AST): Compiled => {
    const known = memo.get(ast)
    if (known !== undefined) return known
    if (Option.isSome(AST.getParseOptionsAnnotation(ast))) throw new Unsupported(`parse options on ${ast._tag}`)
    let node: Compiled
    switch (ast._tag) {
      case "StringKeyword":
        node = leafOf(leaf({ string: true }))
        break
      case "NumberKeyword":
        node = leafOf(leaf({ number: true }))
        break
      case "BooleanKeyword":
        node = leafOf(leaf({ boolean: true }))
        break
      case "UndefinedKeyword":
        node = leafOf(leaf({ undefined: true }))
        break
      case "UnknownKeyword":
      case "AnyKeyword":
      case "VoidKeyword":
        node = leafOf(leaf({ any: true }))
        break
      case "NeverKeyword":
        node = leafOf(leaf({}))
        break
      case "Literal":
        if (ast.literal === null) node = leafOf(leaf({ null: true }))
        // sets compare NaN equal to itself and `ParseResult` (===) does not
        else if (Number.isNaN(ast.literal)) node = leafOf(leaf({}))
        else node = leafOf(leaf({}, [ast.literal]))
        break
      case "Enums":
        node = leafOf(leaf({}, ast.enums.map(([_, value]) => value).filter((value) => !Number.isNaN(value))))
        break
      case "TemplateLiteral":
        node = checkOf(ParseResult.is(Schema.make(ast)))
        break
      case "TypeLiteral":
        node = compileTypeLiteral(ast, go)
        break
      case "TupleType":
        node = compileTupleType(ast, go)
        break
      case "Union":
        node = compileUnion(ast, go)
        break
      case "Refinement":
        node = compileRefinement(ast, go)
        break
      case "Suspend": {
        // a recursive schema meets itself again while compiling: it calls through this stub
        let target: Encoder = () => Mismatch
        node = { _tag: "Encode", encode: (input) => target(input) }
        memo.set(ast, node)
        target = asEncoder(go(ast.f()))
        return node
      }
      default:
        throw new Unsupported(ast._tag)
    }
    memo.set(ast, node)
    return node
  }
  try {
    return Either.right(asEncoder(go(schema.ast)))
  } catch (error) {
    if (error instanceof Unsupported) return Either.left(error.reason)
    throw error
  }
}

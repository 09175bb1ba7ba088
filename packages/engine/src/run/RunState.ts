import { type Context, Duration, Effect, Either } from "effect"
import type { ActionPlan, ConnectorPlan, StepPlan } from "../actionPlan.js"
import { ContextScope, type ExpressionBounds, ExpressionError } from "../evaluate.js"
import type { ParsedConnector } from "../parseConnector.js"
import { type ProviderRequest, type ProviderResponse, type ProviderTransport, ProviderTransportError } from "../ProviderTransport.js"
import { type ActionError, ActionDefinitionError, ActionLimitError, ForeignFailure, type RunFailure } from "../RunErrors.js"
import type { ResolvedAuth } from "./auth/ResolvedAuth.js"
import type { RunContext, RunLimits } from "./RunLimits.js"
import type { RunSecrets } from "./RunSecrets.js"

export type StepOutput = Record<string, unknown>

/**
 * One run's state, shared by the step interpreters: the expression context (inputs,
 * credentials, settings, the steps' outputs), the secrets to redact, and what the run has
 * learnt so far (authentication, base URL, the provider's last 2xx).
 */
export class RunState {
  readonly steps: Record<string, unknown> = {}
  readonly scope: ContextScope
  /** Memoized for the run; dropped when a cached token is refused. */
  auth: ResolvedAuth | undefined
  baseUrl: string | undefined | null = null
  /** The named servers' URLs, each evaluated once per run. */
  readonly serverUrls = new Map<string, string | undefined>()
  lastStep: { readonly plan: StepPlan; readonly output: StepOutput } | undefined
  /** The latest 2xx answer: expression failures after it are about the provider's data. */
  answered: { readonly status: number; readonly url: string } | undefined
  /** The run's one call of `RunContext.refreshAccessToken`: the token it replaces and its answer. */
  tokenRefresh: { readonly rejected: string; readonly renewed: Effect.Effect<string, RunFailure> } | undefined

  constructor(
    readonly parsed: ParsedConnector,
    readonly connector: ConnectorPlan,
    readonly plan: ActionPlan,
    readonly inputs: Record<string, unknown>,
    readonly context: RunContext<unknown>,
    readonly limits: RunLimits,
    readonly transport: Context.Tag.Service<typeof ProviderTransport>,
    readonly secrets: RunSecrets
  ) {
    const filter: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(inputs)) if (key.startsWith("filter_")) filter[key.slice(7)] = value
    this.scope = new ContextScope(
      { inputs, credentials: context.credentials, settings: context.settings ?? {}, steps: this.steps, filter },
      { maxStringLength: limits.maxExpressionOutputChars }
    )
  }

  /** The caller's `beforeEachRequest`, its failure carried as the caller's; nothing without one. */
  get beforeRequest(): Effect.Effect<void, ForeignFailure> {
    const hook = this.context.beforeEachRequest
    return hook === undefined ? Effect.void : Effect.mapError(hook, (failure) => new ForeignFailure(failure))
  }

  /** Sends one request of the run through the transport, after the caller's `beforeEachRequest`. */
  send(request: ProviderRequest): Effect.Effect<ProviderResponse, RunFailure> {
    return this.context.beforeEachRequest === undefined
      ? this.transport.send(request)
      : Effect.zipRight(this.beforeRequest, this.transport.send(request))
  }

  get bounds(): ExpressionBounds {
    return this.scope.bounds
  }

  get actionId(): string {
    return this.plan.action.actionId
  }

  /**
   * Runs code that calls the connector's evaluators. They throw `ExpressionError` (the one
   * exception they raise, from deep inside JEXL and JSONPath); it becomes a typed failure
   * here. Anything else thrown is a bug and stays a defect.
   */
  evaluate<A>(step: StepPlan | undefined, f: () => A): Effect.Effect<A, ActionError> {
    return Effect.suspend(() => {
      try {
        return Effect.succeed(f())
      } catch (error) {
        if (error instanceof ExpressionError) return Effect.fail(this.expressionFailure(error, step))
        throw error
      }
    })
  }

  /** As `evaluate`, for code that also fails on its own (returning `Either.left`). */
  attempt<A>(step: StepPlan | undefined, f: () => Either.Either<A, ActionError>): Effect.Effect<A, ActionError> {
    return Effect.flatMap(this.evaluate(step, f), (result) => result)
  }

  definitionError(step: StepPlan | undefined, message: string): ActionDefinitionError {
    return new ActionDefinitionError({ message, actionId: this.actionId, stepId: step?.stepId })
  }

  tooManyRecords(step: StepPlan, count: number): ActionLimitError {
    return new ActionLimitError({
      limit: "maxRecords",
      message: `step "${step.stepId}" collected ${count} records; at most ${this.limits.maxRecords} allowed (maxRecords)`,
      stepId: step.stepId
    })
  }

  /** Bounds one step (or, without a step, the request named by `what`) by `stepTimeoutMs`. */
  stepDeadline(step: StepPlan | undefined, what?: string) {
    const ms = this.limits.stepTimeoutMs
    return <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | ActionLimitError, R> =>
      Effect.timeoutFail(effect, {
        duration: Duration.millis(ms),
        onTimeout: () =>
          new ActionLimitError({
            limit: "stepTimeout",
            message: `${step === undefined ? what ?? "a request" : `step "${step.stepId}"`} took longer than ${ms} ms (stepTimeoutMs)`,
            stepId: step?.stepId
          })
      })
  }

  private expressionFailure(error: ExpressionError, step: StepPlan | undefined): ActionError {
    if (error.tooLarge) {
      return new ActionLimitError({ limit: "maxExpressionOutput", message: error.message, stepId: step?.stepId })
    }
    if (this.answered !== undefined) {
      // the provider answered, but with data the connector's expressions cannot read: a
      // provider problem (502), told without the connector's internals
      return new ProviderTransportError({
        reason: "invalid_response",
        message: `${this.parsed.definition.info.key} answered ${this.answered.status} with an answer the connector could not map`,
        url: this.answered.url
      })
    }
    return new ActionDefinitionError({ message: error.message, actionId: this.actionId, stepId: step?.stepId, path: error.path })
  }
}

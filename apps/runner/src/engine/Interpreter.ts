/**
 * The interpreter of a checked task tree: tasks in order, `if` (false: `skipped`), groups,
 * loops (each iteration with its own scope, at most `concurrency` at once, outputs in item
 * order), retries on a `Schedule`, time limits, `continueOnError`, waits, and `onFailure` once
 * when the run fails. What runs one attempt of an action and what waits until a time are given
 * (`Steps`): `run` runs them in memory; `serve`'s engine journals them under each task's key
 * (`overdue[3].comment`, `overdue[3].comment#2` for its second attempt).
 *
 * A task's output as later tasks see it: an action's output; a group's, an object of its
 * tasks' outputs by name; a loop's, the list of each iteration's object of its tasks' outputs
 * by name; a wait's, `{ until }` (the ISO time it waited until); a task that failed with
 * `continueOnError`, `{ error: { tag, message } }`. A skipped task has none.
 *
 * @since 0.7.0
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Expressions from "../workflow/internal/expressions.js"
import * as References from "../workflow/References.js"
import type * as Workflow from "../workflow/Workflow.js"

/**
 * A task's error: its tag (a connector error's, `Timeout` for its time limit, `ExpressionFailed`) and message.
 *
 * @since 0.7.0
 * @category models
 */
export interface TaskError {
  readonly tag: string
  readonly message: string
}

/**
 * What `onFailure` reads as `failure`: the failed task's key, its error's tag and message.
 *
 * @since 0.7.0
 * @category models
 */
export interface Failure extends TaskError {
  readonly path: string
}

/**
 * One attempt of an action, as `Steps.attempt` answers it.
 *
 * @since 0.7.0
 * @category models
 */
export interface Attempt {
  readonly status: "succeeded" | "failed"
  /** Its parameters as it resolved them, secret values replaced (what a run's record shows). */
  readonly input?: unknown
  readonly output?: unknown
  readonly error?: TaskError | undefined
  readonly rateLimitWaitMs?: number | undefined
}

/**
 * One iteration of a loop: its index in the list, its status and its tasks' results.
 *
 * @since 0.7.0
 * @category models
 */
export interface Iteration {
  readonly index: number
  readonly status: "succeeded" | "failed"
  readonly tasks: ReadonlyArray<TaskResult>
}

/**
 * The outcome of one task.
 *
 * @since 0.7.0
 * @category models
 */
export interface TaskResult {
  readonly name: string
  /** Its name path with iteration indexes: `overdue[3].comment`. */
  readonly key: string
  readonly kind: Workflow.CheckedTask["kind"]
  /** An action's type. */
  readonly type?: string | undefined
  readonly status: "succeeded" | "failed" | "skipped"
  /** An action's input as its last attempt resolved it, secret values replaced. */
  readonly input?: unknown
  readonly output?: unknown
  readonly error?: TaskError | undefined
  /** An action's attempts, when it ran. */
  readonly attempts?: number | undefined
  readonly durationMs?: number | undefined
  readonly rateLimitWaitMs?: number | undefined
  /** A group's tasks' results. */
  readonly tasks?: ReadonlyArray<TaskResult> | undefined
  /** A loop's iterations, in item order. */
  readonly iterations?: ReadonlyArray<Iteration> | undefined
}

/**
 * The outcome of a run: its tasks' results, and when it failed, why and its failure path's results.
 *
 * @since 0.7.0
 * @category models
 */
export interface RunResult {
  readonly status: "succeeded" | "failed"
  readonly tasks: ReadonlyArray<TaskResult>
  readonly failure?: Failure | undefined
  readonly onFailure?: ReadonlyArray<TaskResult> | undefined
}

/**
 * What runs the leaves of the tree: one attempt of an action (with the values visible to it),
 * and a wait until a time. A failure is the attempt's value, never the Effect's.
 *
 * @since 0.7.0
 * @category models
 */
export interface Steps<R> {
  /**
   * One attempt of an action. With a `deadline` (its own `timeout`'s, or an enclosing task's,
   * whichever ends first), the attempt stops there by itself and answers the deadline's
   * `error`: where it runs (a durable engine's activity, which a run cannot interrupt from
   * outside) is where it must stop sending.
   */
  readonly attempt: (task: Workflow.CheckedAction, key: string, scope: ReadonlyMap<string, unknown>, deadline: Deadline | undefined) => Effect.Effect<Attempt, never, R>
  /** Waits until the time; answers the time it waited until (a run resumed waits until the time it recorded). */
  readonly waitUntil: (key: string, until: Date) => Effect.Effect<Date, never, R>
}

/**
 * What a run reports as it goes; `depth` is how deep in groups and loops the task is.
 *
 * @since 0.7.0
 * @category models
 */
export interface Reporter {
  readonly started: (task: Workflow.CheckedTask, key: string, depth: number) => Effect.Effect<void>
  readonly finished: (result: TaskResult, depth: number) => Effect.Effect<void>
  readonly iteration: (loop: Workflow.CheckedLoop, key: string, index: number, of: number, depth: number) => Effect.Effect<void>
  readonly retrying: (task: Workflow.CheckedAction, key: string, attempt: number, of: number, after: Duration.Duration, depth: number) => Effect.Effect<void>
}

/**
 * A reporter that says nothing.
 *
 * @since 0.7.0
 * @category constructors
 */
export const silent: Reporter = {
  started: () => Effect.void,
  finished: () => Effect.void,
  iteration: () => Effect.void,
  retrying: () => Effect.void
}

type Scope = ReadonlyMap<string, unknown>

/**
 * When a task's time limit ends (the `Clock`'s epoch milliseconds), and the error it ends with.
 *
 * @since 0.10.0
 * @category models
 */
export interface Deadline {
  readonly at: number
  readonly error: TaskError
}

/** Where tasks run: the values visible, the key prefix, the depth, and the earliest time limit around them. */
interface Place<R> {
  readonly steps: Steps<R>
  readonly reporter: Reporter
  readonly prefix: string
  readonly depth: number
  readonly deadline?: Deadline | undefined
}

/** A deadline that has passed answers its error as a failed attempt. */
const timedOut = (deadline: Deadline): Attempt => ({ status: "failed", error: deadline.error })

/** The end of a list of tasks: their results, the values they left, the failure that stopped them. */
interface Sequence {
  readonly results: ReadonlyArray<TaskResult>
  readonly scope: Scope
  readonly failure: Failure | undefined
}

/**
 * An attempt's key without its attempt (`copy#2` → `copy`, its task's path), and the attempt (2).
 *
 * @since 0.7.0
 * @category utils
 */
export const attemptOf = (key: string): { readonly path: string; readonly attempt: number } => {
  const at = key.lastIndexOf("#")
  return at < 0 ? { path: key, attempt: 1 } : { path: key.slice(0, at), attempt: Number(key.slice(at + 1)) }
}

const keyOf = (place: Place<unknown>, name: string) => place.prefix === "" ? name : `${place.prefix}.${name}`

const skippedResult = (task: Workflow.CheckedTask, key: string): TaskResult => ({
  name: task.name,
  key,
  kind: task.kind,
  ...(task.kind === "action" ? { type: task.step.type } : {}),
  status: "skipped"
})

/**
 * What an expression's value is as JSON data (CEL's integers are bigints, its timestamps Dates).
 *
 * @since 0.7.0
 * @category utils
 */
export const plain = (value: unknown): unknown => {
  if (typeof value === "bigint") return Number(value)
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value)) return value.map(plain)
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), plain(v)]))
  if (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
  }
  return value
}

/** The task's `if`: true when it has none; a failed evaluation is the task's error. */
const conditionHolds = (task: Workflow.CheckedTask, scope: Scope): Either.Either<boolean, TaskError> =>
  task.condition === undefined
    ? Either.right(true)
    : Either.mapLeft(
      Either.map(task.condition.evaluate(scope), (value) => value === true),
      (message) => ({ tag: "ExpressionFailed", message: `${task.path}.if: ${message}` })
    )

const runTasks = <R>(place: Place<R>, tasks: ReadonlyArray<Workflow.CheckedTask>, start: Scope): Effect.Effect<Sequence, never, R> =>
  Effect.gen(function*() {
    const scope = new Map(start)
    const results: Array<TaskResult> = []
    let failure: Failure | undefined
    for (const task of tasks) {
      const key = keyOf(place, task.name)
      if (failure !== undefined) {
        const skipped = skippedResult(task, key)
        results.push(skipped)
        yield* place.reporter.finished(skipped, place.depth)
        continue
      }
      const ran = yield* runTask(place, task, key, scope)
      results.push(ran.result)
      for (const [name, value] of ran.visible) scope.set(name, value)
      if (ran.result.status === "succeeded") scope.set(task.name, ran.result.output)
      else if (ran.result.status === "failed") {
        const error = ran.result.error ?? { tag: "Failed", message: "failed" }
        if (continues(task)) scope.set(task.name, { error })
        else failure = ran.failure ?? { path: key, ...error }
      }
    }
    return { results, scope, failure }
  })

const continues = (task: Workflow.CheckedTask) => task.kind !== "wait" && task.continueOnError

interface Ran {
  readonly result: TaskResult
  /** What the task makes visible besides itself (a group's tasks). */
  readonly visible: ReadonlyArray<readonly [string, unknown]>
  /** The failure inside it that failed it, if one did. */
  readonly failure?: Failure | undefined
}

const runTask = <R>(place: Place<R>, task: Workflow.CheckedTask, key: string, scope: Scope): Effect.Effect<Ran, never, R> =>
  Effect.gen(function*() {
    const condition = conditionHolds(task, scope)
    if (Either.isRight(condition) && !condition.right) {
      const skipped = skippedResult(task, key)
      yield* place.reporter.finished(skipped, place.depth)
      return { result: skipped, visible: [] }
    }
    yield* place.reporter.started(task, key, place.depth)
    const startedAt = yield* Clock.currentTimeMillis
    const limit = task.kind === "wait" ? undefined : task.timeout
    const timeout: TaskError | undefined = limit === undefined
      ? undefined
      : { tag: "Timeout", message: `${task.kind} "${task.name}" did not finish within ${Duration.format(limit)} (its timeout)` }
    const own = limit === undefined ? undefined : { at: startedAt + Duration.toMillis(limit), error: timeout! }
    const inner: Place<R> = own !== undefined && (place.deadline === undefined || own.at < place.deadline.at) ? { ...place, deadline: own } : place
    const body: Effect.Effect<Ran, never, R> = Either.isLeft(condition)
      ? Effect.succeed({ result: { ...skippedResult(task, key), status: "failed", error: condition.left }, visible: [] })
      : task.kind === "action"
      ? runAction(inner, task, key, scope)
      : task.kind === "group"
      ? runGroup(inner, task, key, scope)
      : task.kind === "loop"
      ? runLoop(inner, task, key, scope)
      : task.kind === "call"
      ? runCall(inner, task, key, scope)
      : runWait(inner, task, key, scope)
    // An action stops by itself at its deadline (each attempt does, where it runs); a group, a
    // loop or a call is interrupted there (the actions inside stop at the same deadline).
    const limited: Effect.Effect<Ran, never, R> = limit === undefined || task.kind === "action" ? body : Effect.map(Effect.timeoutOption(body, limit), Option.getOrElse((): Ran => ({
      result: { ...skippedResult(task, key), status: "failed", error: timeout },
      visible: []
    })))
    const ran = yield* limited
    const durationMs = (yield* Clock.currentTimeMillis) - startedAt
    const result: TaskResult = { ...ran.result, durationMs }
    yield* place.reporter.finished(result, place.depth)
    return { ...ran, result }
  })

const runAction = <R>(place: Place<R>, task: Workflow.CheckedAction, key: string, scope: Scope): Effect.Effect<Ran, never, R> =>
  Effect.gen(function*() {
    const retry = task.retry
    const deadline = place.deadline
    const past = deadline === undefined ? Effect.succeed(false) : Effect.map(Clock.currentTimeMillis, (now) => now >= deadline.at)
    let attempt = 0
    let rateLimitWaitMs = 0
    const once = Effect.gen(function*() {
      // No attempt starts past the deadline: the action ends with the deadline's error.
      if (yield* past) return timedOut(deadline!)
      attempt += 1
      if (retry !== undefined && attempt > 1) yield* place.reporter.retrying(task, key, attempt, retry.attempts, delayBefore(retry, attempt), place.depth)
      return yield* place.steps.attempt(task, attempt === 1 ? key : `${key}#${attempt}`, scope, deadline)
    }).pipe(
      Effect.tap((outcome) => Effect.sync(() => void (rateLimitWaitMs += outcome.rateLimitWaitMs ?? 0))),
      Effect.flatMap((outcome) =>
        Effect.flatMap(past, (over) =>
          retry !== undefined && !over && outcome.status === "failed" && outcome.error !== undefined && retry.on.has(outcome.error.tag)
            ? Effect.fail(outcome)
            : Effect.succeed(outcome))
      )
    )
    // A retry's wait ends at the deadline at the latest.
    const untilDeadline = (delay: Duration.Duration) =>
      deadline === undefined ? Effect.succeed(delay) : Effect.map(Clock.currentTimeMillis, (now) => Duration.min(delay, Duration.millis(Math.max(0, deadline.at - now))))
    const outcome = retry === undefined
      ? yield* Effect.merge(once)
      : yield* Effect.merge(Effect.retry(
        once,
        Schedule.intersect(
          retry.backoff === "fixed" ? Schedule.map(Schedule.spaced(retry.delay), () => retry.delay) : Schedule.exponential(retry.delay, 2),
          Schedule.recurs(retry.attempts - 1)
        ).pipe(Schedule.modifyDelayEffect((_, delay) => untilDeadline(delay)))
      ))
    return {
      result: {
        name: task.name,
        key,
        kind: "action" as const,
        type: task.step.type,
        status: outcome.status,
        ...(outcome.input === undefined ? {} : { input: outcome.input }),
        ...(outcome.status === "succeeded" ? { output: outcome.output } : { error: outcome.error }),
        attempts: attempt,
        ...(rateLimitWaitMs > 0 ? { rateLimitWaitMs } : {})
      },
      visible: []
    }
  })

/** How long a retry waits before this attempt (the second waits `delay`; exponential doubles it each time). */
export const delayBefore = (retry: Workflow.Retry, attempt: number): Duration.Duration =>
  retry.backoff === "fixed" ? retry.delay : Duration.times(retry.delay, 2 ** Math.max(0, attempt - 2))

const outputsOf = (tasks: ReadonlyArray<Workflow.CheckedTask>, scope: Scope) =>
  Object.fromEntries(tasks.flatMap((task) => scope.has(task.name) ? [[task.name, scope.get(task.name)]] : []))

/** How a group, loop or call ended: its output, or the failure inside it as its error. */
const endedBy = (failure: Failure | undefined, output: () => unknown) =>
  failure === undefined
    ? { status: "succeeded" as const, output: output() }
    : { status: "failed" as const, error: { tag: failure.tag, message: `${failure.path}: ${failure.message}` } }

const runGroup = <R>(place: Place<R>, group: Workflow.CheckedGroup, key: string, scope: Scope): Effect.Effect<Ran, never, R> =>
  Effect.map(runTasks({ ...place, prefix: key, depth: place.depth + 1 }, group.tasks, scope), (sequence): Ran => {
    // Its tasks are visible after it (those that ran).
    const visible = group.tasks.flatMap((task) => sequence.scope.has(task.name) ? [[task.name, sequence.scope.get(task.name)] as const] : [])
    return {
      result: {
        name: group.name,
        key,
        kind: "group",
        ...endedBy(sequence.failure, () => outputsOf(group.tasks, sequence.scope)),
        tasks: sequence.results
      },
      visible,
      failure: sequence.failure
    }
  })

const runLoop = <R>(place: Place<R>, loop: Workflow.CheckedLoop, key: string, scope: Scope): Effect.Effect<Ran, never, R> =>
  Effect.gen(function*() {
    const evaluated = loop.forEach.evaluate(scope)
    const items = Either.isRight(evaluated) && Array.isArray(evaluated.right) ? evaluated.right.map(plain) : undefined
    if (items === undefined) {
      const message = Either.isLeft(evaluated) ? evaluated.left : "did not give a list"
      return { result: { ...skippedResult(loop, key), status: "failed", error: { tag: "ExpressionFailed", message: `${loop.path}.forEach: ${message}` } }, visible: [] }
    }
    // Each iteration's outcome is a value: a failed one does not interrupt the others.
    const iterations = yield* Effect.forEach(items, (item, index) =>
      Effect.gen(function*() {
        const prefix = `${key}[${index}]`
        yield* place.reporter.iteration(loop, prefix, index + 1, items.length, place.depth + 1)
        const sequence = yield* runTasks({ ...place, prefix, depth: place.depth + 2 }, loop.tasks, new Map([...scope, [loop.as, item]]))
        return { index, sequence }
      }), { concurrency: loop.concurrency })
    const failed = iterations.find(({ sequence }) => sequence.failure !== undefined)
    return {
      result: {
        name: loop.name,
        key,
        kind: "loop",
        ...endedBy(failed?.sequence.failure, () => iterations.map(({ sequence }) => outputsOf(loop.tasks, sequence.scope))),
        iterations: iterations.map(({ index, sequence }) => ({
          index,
          status: sequence.failure === undefined ? "succeeded" as const : "failed" as const,
          tasks: sequence.results
        }))
      },
      visible: [],
      failure: failed?.sequence.failure
    }
  })

/**
 * Values with their `${= …}` values evaluated (by the compiled expressions, by source) and their
 * `${…}` references resolved, in one pass (a value put in is never read again).
 *
 * @since 0.7.0
 * @category utils
 */
export const resolveValues = (
  values: unknown,
  expressions: ReadonlyMap<string, Expressions.Compiled>,
  scope: Scope
): Either.Either<unknown, References.Unresolved> => {
  if (expressions.size === 0) return References.resolve(values, scope)
  const walk = (value: unknown): unknown => {
    const compiled = typeof value === "string" ? expressions.get(Expressions.valueExpression(value) ?? "") : undefined
    if (compiled !== undefined) {
      const evaluated = compiled.evaluate(scope)
      if (Either.isLeft(evaluated)) throw new References.Unresolved({ message: `\${= ${compiled.source}}: ${evaluated.left}` })
      return plain(evaluated.right)
    }
    if (typeof value === "string") return Either.getOrThrowWith(References.resolve(value, scope), (unresolved) => unresolved)
    if (Array.isArray(value)) return value.map(walk)
    if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]))
    return value
  }
  try {
    return Either.right(walk(values))
  } catch (error) {
    if (error instanceof References.Unresolved) return Either.left(error)
    throw error
  }
}

/**
 * A call: the called workflow's tasks under the call's key (a call `tidy`'s task `move` is `tidy.move`), with only its
 * inputs visible (its declared ones, the given ones over them); when they fail, its own
 * `onFailure` once. Its output: an object of its tasks' outputs by name.
 */
const runCall = <R>(place: Place<R>, call: Workflow.CheckedCall, key: string, scope: Scope): Effect.Effect<Ran, never, R> =>
  Effect.gen(function*() {
    const given = resolveValues(call.inputs, call.expressions, scope)
    if (Either.isLeft(given)) {
      return { result: { ...skippedResult(call, key), status: "failed", error: { tag: "InvalidInput", message: `${call.path}.inputs: ${given.left.message}` } }, visible: [] }
    }
    const inputs = { ...Object.fromEntries(call.workflow.inputs), ...(given.right as Record<string, unknown>) }
    const inside: Place<R> = { ...place, prefix: key, depth: place.depth + 1 }
    const main = yield* runTasks(inside, call.workflow.tasks, new Map([["inputs", inputs]]))
    const recovery = main.failure === undefined || call.workflow.onFailure.length === 0
      ? undefined
      : yield* runTasks(inside, call.workflow.onFailure, new Map([...main.scope, ["failure", main.failure]]))
    return {
      result: {
        name: call.name,
        key,
        kind: "call",
        ...endedBy(main.failure, () => outputsOf(call.workflow.tasks, main.scope)),
        tasks: recovery === undefined ? main.results : [...main.results, ...recovery.results]
      },
      visible: [],
      failure: main.failure
    }
  })

const runWait = <R>(place: Place<R>, task: Workflow.CheckedWait, key: string, scope: Scope): Effect.Effect<Ran, never, R> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const wait = task.wait
    let until: Date
    if ("delay" in wait) until = new Date(now + Duration.toMillis(wait.delay))
    else {
      const evaluated = wait.until.evaluate(scope)
      const time = Either.isRight(evaluated) ? timeOf(evaluated.right) : undefined
      if (time === undefined) {
        const message = Either.isLeft(evaluated) ? evaluated.left : "did not give a time"
        return { result: { ...skippedResult(task, key), status: "failed", error: { tag: "ExpressionFailed", message: `${task.path}.until: ${message}` } }, visible: [] }
      }
      until = time
    }
    const waited = yield* place.steps.waitUntil(key, until)
    return { result: { name: task.name, key, kind: "wait", status: "succeeded", output: { until: waited.toISOString() } }, visible: [] }
  })

const timeOf = (value: unknown): Date | undefined => {
  const time = value instanceof Date ? value : typeof value === "string" ? new Date(value) : undefined
  return time === undefined || Number.isNaN(time.getTime()) ? undefined : time
}

/**
 * Waits in memory until a time (at once when it is past), on the Effect clock (a `TestClock` drives it).
 *
 * @since 0.7.0
 * @category constructors
 */
export const sleepUntil = (until: Date): Effect.Effect<void> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => until.getTime() > now ? Effect.sleep(Duration.millis(until.getTime() - now)) : Effect.void)

/**
 * Runs a workflow's tasks (with `trigger`, the event, when a trigger fired the run); when they
 * fail, its `onFailure` tasks once, with `failure`.
 *
 * @since 0.7.0
 * @category constructors
 */
export const run = <R>(
  workflow: Workflow.Workflow,
  steps: Steps<R>,
  reporter: Reporter,
  trigger?: unknown
): Effect.Effect<RunResult, never, R> =>
  Effect.gen(function*() {
    // The inputs as an object with own keys (CEL and `${…}` both read it).
    const scope = new Map<string, unknown>([["inputs", Object.fromEntries(workflow.inputs)]])
    if (trigger !== undefined) scope.set("trigger", trigger)
    const place: Place<R> = { steps, reporter, prefix: "", depth: 0 }
    const main = yield* runTasks(place, workflow.tasks, scope)
    if (main.failure === undefined) return { status: "succeeded", tasks: main.results }
    if (workflow.onFailure.length === 0) return { status: "failed", tasks: main.results, failure: main.failure }
    const recovery = yield* runTasks(place, workflow.onFailure, new Map([...main.scope, ["failure", main.failure]]))
    return { status: "failed", tasks: main.results, failure: main.failure, onFailure: recovery.results }
  })

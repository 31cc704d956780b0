/** A component's reference page (see component-reference.mjs). */

/** The components with a reference page: package directory and the component's export. */
export declare const components: ReadonlyArray<{ readonly pkg: string; readonly exportName: string }>

/** What each action and trigger sent in the contract test: `packages/<pkg>/test/operations.json`. */
export interface Operations {
  readonly actions: Readonly<Record<string, ReadonlyArray<string>>>
  readonly triggers: Readonly<Record<string, Readonly<Record<string, ReadonlyArray<string>>>>>
}

/**
 * The page, from `Component.describe(component)`; `pkg` is the package's directory under
 * packages/; `operations` what each sent (by default, read from the package's test/operations.json).
 */
export declare const renderReference: (description: unknown, pkg: string, operations?: Operations) => string

/** The path of `packages/<pkg>/test/operations.json`, and its content (none recorded when it is absent). */
export declare const operationsPath: (pkg: string) => string
export declare const readOperations: (pkg: string) => Operations

/**
 * The actions with no operations recorded (their pages would lack a Requests line), one line
 * each naming the command that records them (the contract test with UPDATE_OPERATIONS=1, then
 * pnpm reference); none when every action's are recorded.
 */
export declare const unrecordedOperations: (description: unknown, pkg: string, operations?: Operations) => ReadonlyArray<string>

/** The path of `packages/<pkg>/REFERENCE.md`. */
export declare const referencePath: (pkg: string) => string

/**
 * What is wrong with a package README beside its reference page, one line each (none when it
 * is right): a table row per action or trigger, a broken link to the page or within the README,
 * a name that reads as an action's and is none, "None is deprecated today" while one is, and an
 * action's scopes or deprecation the page does not show.
 */
export declare const readmeProblems: (
  readme: string,
  description: unknown,
  pkg: string,
  /** Names the README gives that read as actions' and are the provider's own (Trello's action types). */
  providerNames?: ReadonlyArray<string>
) => ReadonlyArray<string>

/** A component's reference page (see component-reference.mjs). */

/** The components with a reference page: package directory and the component's export. */
export declare const components: ReadonlyArray<{ readonly pkg: string; readonly exportName: string }>

/** The page, from `Component.describe(component)`; `pkg` is the package's directory under packages/. */
export declare const renderReference: (description: unknown, pkg: string) => string

/** The path of `packages/<pkg>/REFERENCE.md`. */
export declare const referencePath: (pkg: string) => string

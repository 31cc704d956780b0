/** `@x/core`'s API pages (see core-docs.mjs). */

/** packages/core, where docgen runs. */
export declare const coreDir: string

/** packages/core/docs, the checked-in pages. */
export declare const docsDir: string

/** The pages docgen makes now from core's sources, by path under docs/ (`README.md`, `modules/<Module>.ts.md`). */
export declare const renderPages: () => Promise<ReadonlyMap<string, string>>

/** The checked-in pages, by path under docs/. */
export declare const readPages: () => ReadonlyMap<string, string>

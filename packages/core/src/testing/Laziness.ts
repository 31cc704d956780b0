/**
 * Whether importing or defining something built what it should build on first use: the count of
 * the definitions' parts built so far (actions' parameter decoders and output encoders, triggers'
 * parameter decoders, properties' Schemas), read before and after.
 *
 * @since 0.10.0
 */
import * as Lazy from "../internal/lazy.js"

/**
 * How many parts of definitions (a decoder, an encoder, a property's Schema) have been built
 * in this process: importing a package must add none; an action's first call builds its own.
 *
 * @since 0.10.0
 * @category testing
 */
export const built: () => number = Lazy.builtCount

/** The components the runner knows. */
import { boardtool } from "@x/boardtool"
import { browseragent } from "@x/browseragent"
import { Executor, Registry } from "@x/core"
import { sitebuilder } from "@x/sitebuilder"

export const components = [sitebuilder, boardtool, browseragent]
export const registry = Registry.make(components)
export const executor = Executor.make(registry)

/** The components the runner knows. */
import { boardtool } from "@x/boardtool"
import { browseragent } from "@x/browseragent"
import { Component, Executor, Registry } from "@x/core"
import { sitebuilder } from "@x/sitebuilder"

export const components = [sitebuilder, boardtool, browseragent]
export const registry = Registry.make(components)
export const executor = Executor.make(registry)

/**
 * The same components with no rate limiter: for the sandbox without limits (load tests), where
 * the simulators do not enforce the providers' limits either.
 */
export const executorWithoutRateLimits = () =>
  Executor.make(components.map((component) => Component.withRateLimits(component, [])))

/** The list of tools of `x-runner mcp` (see mcp-tools.mjs). */

/** The path of `apps/runner/MCP-TOOLS.md`. */
export declare const mcpToolsPath: string

/** The command that writes it. */
export declare const mcpToolsCommand: string

/**
 * The page, from the components as `x-runner describe` prints them and the runner's `McpTools`
 * module (its `toolName`, `annotationsOf` and `optionsToolName`).
 */
export declare const renderMcpTools: (
  descriptions: ReadonlyArray<unknown>,
  mcpTools: {
    readonly toolName: (component: never, action: never) => string
    readonly annotationsOf: (action: never) => {
      readonly readOnlyHint: boolean
      readonly destructiveHint: boolean
      readonly idempotentHint: boolean
    }
    readonly optionsToolName: string
  }
) => string

export interface Example {
  /** 1-based line of the opening fence, to name the example in failures. */
  readonly line: number
  readonly code: string
  /** What stdout must contain: the text after each `// prints:`. */
  readonly prints: ReadonlyArray<string>
}

export interface ReadmeDocs {
  /** The README's install line, e.g. `npm i @x/boardtool`. */
  readonly installLine: string | undefined
  readonly examples: ReadonlyArray<Example>
}

interface Fence {
  readonly info: string
  readonly line: number
  readonly body: string
}

/**
 * The fenced code blocks of a Markdown text (CommonMark fences: ``` or ~~~, up to three spaces
 * of indent, closed by the same character at least as long), with their lines, which a
 * Markdown library's tokens do not give and the failures need.
 */
const fences = (markdown: string): ReadonlyArray<Fence> => {
  const lines = markdown.split(/\r?\n/)
  const found: Array<Fence> = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[i]!)
    if (open === null) continue
    const [, indent, marker, info] = open as unknown as [string, string, string, string]
    const close = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`)
    const body: Array<string> = []
    let j = i + 1
    for (; j < lines.length && !close.test(lines[j]!); j++) {
      body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!.trimStart())
    }
    found.push({ info: info.trim(), line: i + 1, body: body.join("\n") })
    i = j
  }
  return found
}

/**
 * What the registry test reads from a package README (the convention the READMEs follow): the
 * install line, the first line starting with `npm i ` in a ```sh block; and the ```ts example
 * blocks, each a complete ES module, whose `// prints: <text>` comments say what it prints.
 */
export const parseReadme = (markdown: string): ReadmeDocs => {
  const blocks = fences(markdown)
  const installLine = blocks
    .filter((block) => block.info.split(/\s+/)[0] === "sh")
    .flatMap((block) => block.body.split("\n"))
    .map((line) => line.trim())
    .find((line) => line.startsWith("npm i "))
  const examples = blocks
    .filter((block) => /^ts\s+example$/.test(block.info))
    .map((block) => ({
      line: block.line,
      code: block.body + "\n",
      prints: [...block.body.matchAll(/\/\/ prints: (.*)$/gm)].map((match) => match[1]!.trim())
    }))
  return { installLine, examples }
}

/**
 * The arguments of the install line for a package manager: `npm i a b` is `npm install a b`,
 * and for pnpm `pnpm add a b`. Only package names and ranges are accepted, since they are run.
 */
export const installArguments = (installLine: string): ReadonlyArray<string> => {
  const args = installLine.replace(/^npm i\s+/, "").split(/\s+/).filter((arg) => arg !== "")
  const bad = args.find((arg) => !/^(@[a-z0-9._-]+\/)?[a-z0-9._-]+(@[\w.^~<>=|*-]+)?$/i.test(arg))
  if (bad !== undefined || args.length === 0) {
    throw new Error(`the install line "${installLine}" is not "npm i <package>…" (at "${bad ?? ""}")`)
  }
  return args
}

/**
 * How runAndWait asks a V4 run for structured output: V4 takes no output schema, so the task
 * carries it after this line (and the simulator answers it). A module of its own, with no
 * imports, for the simulator to read without loading the component.
 */
export const outputSchemaInstruction = "Answer with only a JSON value that follows this JSON Schema:"

import { tool, type ToolSet } from 'ai'
import { inputSchemaFor, runTool } from './run.js'
import type { AnyTool, ToolContext } from './types.js'

/**
 * The tools as an AI SDK ToolSet for streamText. Each returns the text the model reads: project data
 * inside untrusted-data boundaries (untrusted.ts). A refusal or failure is thrown with its message, so
 * the SDK hands the model a tool error it can read and react to.
 */
export function toAiSdkTools(tools: readonly AnyTool[], context: ToolContext): ToolSet {
  const set: ToolSet = {}
  for (const definition of tools) {
    set[definition.name] = tool({
      description: definition.description,
      inputSchema: inputSchemaFor(definition, context),
      execute: async (input: unknown): Promise<string> => {
        const outcome = await runTool(definition, context, input)
        if (!outcome.ok) throw new Error(outcome.text)
        return outcome.text
      },
    })
  }
  return set
}

import { DisplayEdgeFunctionArgs, DisplayQueryArgs } from '@stratum/contracts'
import { tool, type ToolSet } from 'ai'

/**
 * The two tools whose call is the answer: the panel renders a query block (display_query) or an edge
 * function block with a Deploy action (display_edge_function) from the call's arguments. Nothing runs
 * on the server: the user runs the query or deploys the function from the block, with the same gates
 * as elsewhere in the dashboard. They read nothing of the project, so every opt-in level has them.
 */
export function renderTools(): ToolSet {
  return {
    display_query: tool({
      description:
        'Show SQL to the user as a query block they can run, as a table or a chart. Use it for every query you propose, instead of a code block. ' +
        'Set runQuery only for read-only SELECTs; writes always wait for the user. For a chart give view "chart" with xAxis and yAxis naming result columns.',
      inputSchema: DisplayQueryArgs,
      execute: async () => ({ shown: true, note: 'The query block is shown to the user; they decide whether to run it.' }),
    }),
    display_edge_function: tool({
      description: 'Show an edge function to the user (TypeScript for Deno, using Deno.serve), with a Deploy action. Use it instead of a code block.',
      inputSchema: DisplayEdgeFunctionArgs,
      execute: async () => ({ shown: true, note: 'The function is shown to the user; they decide whether to deploy it.' }),
    }),
  }
}

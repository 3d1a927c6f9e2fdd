/**
 * One tool layer, two doors: the dashboard's assistant (toAiSdkTools over assistantToolsFor) and the
 * MCP endpoint (mcp/). Keep this entry stable: the assistant route imports from here.
 */
export { assistantToolsFor, MCP_TOOLS } from './sets.js'
export { toAiSdkTools } from './ai-sdk.js'
export { inputSchemaFor, runTool, type ToolOutcome } from './run.js'
export { createToolServices, toolServices, type ToolServices } from './services.js'
export { UNTRUSTED_BLOCK, wrapUntrusted } from './untrusted.js'
export { ToolError, type AnyTool, type ProjectToolContext, type Tool, type ToolContext, type ToolReply, type ToolWrites } from './types.js'

import type { PlatformContext } from '../../platform-context.js'
import { protectFunctionCode } from './sandbox.js'
import type { DeployInput } from './deploy-input.js'
import { deployFunction, type FunctionRow } from './store.js'

/**
 * Deploys a function's checked files and makes the next request run them: the one path of the
 * Management API's deploy route and the AI tools' deploy_edge_function. The caller checks permission.
 */
export async function publishFunction(ctx: PlatformContext, ref: string, slug: string, input: DeployInput, userId: string): Promise<FunctionRow> {
  // The code directory is the project's function user's to read, nobody else's, before a file is written.
  protectFunctionCode(ctx.config.dataDir, ref)
  const row = await deployFunction(ctx.db, ctx.config.dataDir, ref, slug, input, userId)
  // The next request runs the new version.
  await ctx.functions.functionChanged(ref, slug)
  return row
}

import type { FastifyBaseLogger } from 'fastify'
import type { PlatformContext } from '../http/context.js'
import { rotationsFor, type JwtSecretRotations } from './rotation.js'

/** The JWT secret updates of a running platform: one runner per platform context. */
export function platformRotations(ctx: PlatformContext, log: FastifyBaseLogger): JwtSecretRotations {
  return rotationsFor(ctx, { db: ctx.db, secrets: ctx.secrets, log, stepDelayMs: ctx.config.operationStepDelayMs })
}

/**
 * Boot: finishes (or fails, keeping the old secret) every update the previous run left Updating.
 * The api-keys routes call it when the HTTP app is ready; callable on its own as well.
 */
export function resumeRotations(ctx: PlatformContext, log: FastifyBaseLogger): Promise<number> {
  return platformRotations(ctx, log).resume()
}

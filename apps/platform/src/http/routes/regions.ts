import { V1_REGIONS } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'
import { orgAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { route } from '../typed-route.js'

type Region = (typeof V1_REGIONS)[number]
type SmartGroup = 'americas' | 'emea' | 'apac'

const GROUP_NAMES: Record<SmartGroup, string> = { americas: 'Americas', emea: 'Europe, Middle East and Africa', apac: 'Asia-Pacific' }

const groupOf = (code: Region): SmartGroup => (code.startsWith('eu-') ? 'emea' : code.startsWith('ap-') ? 'apac' : 'americas')

/** The recommendation per continent code of the request (the reference's NA, SA, EU, AF, AS, OC, AN). */
const NEAREST: Record<string, Region> = { NA: 'us-east-1', SA: 'sa-east-1', EU: 'eu-central-1', AF: 'eu-central-1', AS: 'ap-southeast-1', OC: 'ap-southeast-2', AN: 'us-east-1' }

const specific = (code: Region) => ({ name: code, code, type: 'specific' as const, provider: 'AWS' as const })
const smartGroup = (code: SmartGroup) => ({ name: GROUP_NAMES[code], code, type: 'smartGroup' as const })

/**
 * GET /v1/projects/available-regions. Every Stratum project runs on this machine: the region is a
 * label that POST /v1/projects records, so every code of the reference is available. The provider
 * is the reference's enum value (it has none for a local machine). Registered as a fixed path, it wins
 * over /v1/projects/{ref} whatever the registration order (the router prefers static segments).
 */
export async function regionRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  route(app, 'GET /v1/projects/available-regions', async (request, _reply, input) => {
    const query = input.query
    await orgAccess(ctx.db, request, query.organization_slug)
    const nearest = NEAREST[query.continent ?? 'NA']!
    return {
      recommendations: { smartGroup: smartGroup(groupOf(nearest)), specific: [specific(nearest)] },
      all: { smartGroup: (['americas', 'emea', 'apac'] as const).map(smartGroup), specific: V1_REGIONS.map(specific) },
    }
  })
}

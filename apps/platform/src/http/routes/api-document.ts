import { generateOpenApiDocument, type GeneratedOpenApiDocument } from '@stratum/contracts'
import type { FastifyInstance } from 'fastify'

/**
 * GET /api/openapi.json: the platform's routes (the dashboard's /platform and /api, the Management API's /v1) as an
 * OpenAPI 3.0 document generated from the contracts' route map, the schemas the handlers read with. Public, like
 * the health check (auth-hook.ts): it describes the API and holds nothing of anyone's.
 */
export async function apiDocumentRoutes(app: FastifyInstance): Promise<void> {
  let document: GeneratedOpenApiDocument | undefined
  app.get('/api/openapi.json', async () => (document ??= generateOpenApiDocument()))
}

import {
  CONTENT_TEXTS,
  ContentCountQuery,
  ContentIdParams,
  ContentListQuery,
  CreateContentBody,
  CreateFolderBody,
  IdsQuery,
  RefParams,
  UpdateFolderBody,
  UpsertContentBody,
  roleCan,
} from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { createFolder, deleteFolders, getFolder, listFolder, updateFolder } from '../../content/folders.js'
import { countContent, deleteContent, getContent, listContent, saveContent, type ContentActor } from '../../content/store.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, forbidden, parse } from '../../errors.js'

/**
 * Saved snippets and folders of a project (the SQL editor spec's snippets, folders and their
 * validation rules; the hosted platform's content API shapes).
 * Reading takes membership; saving takes user_content.create, refused with the spec's text.
 */
export async function contentRoutes(app: FastifyInstance, ctx: PlatformContext): Promise<void> {
  async function actor(request: FastifyRequest, saving: boolean): Promise<ContentActor> {
    const { ref } = parse(RefParams, { ref: (request.params as { ref?: unknown }).ref })
    const { project, role } = await projectAccess(ctx.db, request, ref, 'projects.read')
    if (saving && !roleCan(role, 'user_content.create')) throw forbidden(CONTENT_TEXTS.cannotSave)
    const canSave = roleCan(role, 'user_content.create')
    return { projectId: project.id, userId: identityOf(request).user.id, canUpdateProject: roleCan(role, 'projects.update'), canSave }
  }

  const base = '/platform/projects/:ref/content'

  app.get(base, async (request) => {
    const who = await actor(request, false)
    const query = parse(ContentListQuery, request.query)
    return listContent(ctx.db, who, query)
  })

  app.post(base, async (request, reply) => {
    const who = await actor(request, true)
    if (request.headers.version !== '2') throw invalidInput('This endpoint needs the header Version: 2')
    const body = parse(CreateContentBody, request.body)
    reply.code(201)
    return await saveContent(ctx.db, who, body, 'create')
  })

  // A member without user_content.create may still star a snippet for themselves: the store refuses them anything else.
  app.put(base, async (request) => {
    const who = await actor(request, false)
    const body = parse(UpsertContentBody, request.body)
    return saveContent(ctx.db, who, body, 'upsert')
  })

  app.delete(base, async (request) => {
    const who = await actor(request, true)
    const { ids } = parse(IdsQuery, request.query)
    return deleteContent(ctx.db, who, ids)
  })

  app.get(`${base}/count`, async (request) => {
    const who = await actor(request, false)
    const { type } = parse(ContentCountQuery, request.query)
    return countContent(ctx.db, who, type)
  })

  app.get(`${base}/item/:id`, async (request) => {
    const who = await actor(request, false)
    const { id } = parse(ContentIdParams, request.params)
    return getContent(ctx.db, who, id)
  })

  app.get(`${base}/folders`, async (request) => {
    const who = await actor(request, false)
    const query = parse(ContentListQuery, request.query)
    return listFolder(ctx.db, who, null, query)
  })

  app.get(`${base}/folders/:id`, async (request) => {
    const who = await actor(request, false)
    const { id } = parse(ContentIdParams, request.params)
    const query = parse(ContentListQuery, request.query)
    const listing = await listFolder(ctx.db, who, id, query)
    return { ...listing, folder: await getFolder(ctx.db, who, id) }
  })

  app.post(`${base}/folders`, async (request, reply) => {
    const who = await actor(request, true)
    const body = parse(CreateFolderBody, request.body)
    reply.code(201)
    return await createFolder(ctx.db, who, body)
  })

  app.put(`${base}/folders/:id`, async (request) => {
    const who = await actor(request, true)
    const { id } = parse(ContentIdParams, request.params)
    const body = parse(UpdateFolderBody, request.body)
    return updateFolder(ctx.db, who, id, body)
  })

  app.delete(`${base}/folders`, async (request) => {
    const who = await actor(request, true)
    const { ids } = parse(IdsQuery, request.query)
    return deleteFolders(ctx.db, who, ids)
  })
}

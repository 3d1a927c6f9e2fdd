import {
  CONTENT_TEXTS,
  ContentIdParams,
  RefParams,
  roleCan,
} from '@stratum/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { createFolder, deleteFolders, getFolder, listFolder, updateFolder } from '../../content/folders.js'
import { countContent, deleteContent, getContent, listContent, saveContent, type ContentActor } from '../../content/store.js'
import { identityOf, projectAccess } from '../access.js'
import type { PlatformContext } from '../../platform-context.js'
import { invalidInput, forbidden, parse } from '../../errors.js'
import { route } from '../typed-route.js'

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

  route(app, 'GET /platform/projects/{ref}/content', async (request, _reply, input) => {
    const who = await actor(request, false)
    return listContent(ctx.db, who, input.query)
  })

  route(app, 'POST /platform/projects/{ref}/content', async (request, reply, input) => {
    const who = await actor(request, true)
    if (request.headers.version !== '2') throw invalidInput('This endpoint needs the header Version: 2')
    const saved = await saveContent(ctx.db, who, input.body, 'create')
    reply.code(201)
    return saved
  })

  // A member without user_content.create may still star a snippet for themselves: the store refuses them anything else.
  route(app, 'PUT /platform/projects/{ref}/content', async (request, _reply, input) => {
    const who = await actor(request, false)
    return saveContent(ctx.db, who, input.body, 'upsert')
  })

  route(app, 'DELETE /platform/projects/{ref}/content', async (request, _reply, input) => {
    const who = await actor(request, true)
    return deleteContent(ctx.db, who, input.query.ids)
  })

  route(app, 'GET /platform/projects/{ref}/content/count', async (request, _reply, input) => {
    const who = await actor(request, false)
    return countContent(ctx.db, who, input.query.type)
  })

  route(app, 'GET /platform/projects/{ref}/content/item/{id}', async (request) => {
    const who = await actor(request, false)
    const { id } = parse(ContentIdParams, request.params)
    return getContent(ctx.db, who, id)
  })

  route(app, 'GET /platform/projects/{ref}/content/folders', async (request, _reply, input) => {
    const who = await actor(request, false)
    return listFolder(ctx.db, who, null, input.query)
  })

  route(app, 'GET /platform/projects/{ref}/content/folders/{id}', async (request, _reply, input) => {
    const who = await actor(request, false)
    const { id } = parse(ContentIdParams, request.params)
    const listing = await listFolder(ctx.db, who, id, input.query)
    return { ...listing, folder: await getFolder(ctx.db, who, id) }
  })

  route(app, 'POST /platform/projects/{ref}/content/folders', async (request, reply, input) => {
    const who = await actor(request, true)
    const folder = await createFolder(ctx.db, who, input.body)
    reply.code(201)
    return folder
  })

  route(app, 'PUT /platform/projects/{ref}/content/folders/{id}', async (request, _reply, input) => {
    const who = await actor(request, true)
    const { id } = parse(ContentIdParams, request.params)
    return updateFolder(ctx.db, who, id, input.body)
  })

  route(app, 'DELETE /platform/projects/{ref}/content/folders', async (request, _reply, input) => {
    const who = await actor(request, true)
    return deleteFolders(ctx.db, who, input.query.ids)
  })
}

/**
 * The platform's HTTP routes as the dashboard calls them: 'METHOD /path/{param}' -> the schemas of what a call
 * sends (body, query) and what it answers (response). One source for three readers:
 * - the dashboard's typed client (apps/dashboard/src/data/request.ts) takes the types made from them (ApiRoutes),
 *   so a path or a shape that drifts fails to compile;
 * - the server registers its handlers by these keys (apps/platform/src/http/typed-route.ts): a handler's answer
 *   must be the route's response, and its body and query are read with these schemas;
 * - the OpenAPI document (openapi.ts) is generated from them, and a server test compares its /v1 part with the
 *   Management API reference.
 *
 * {name} is one path segment; {...name} is the rest of the path (served by a wildcard route). A body or query
 * made `.optional()` may be left out. `answer<T>()` marks the few answers typed by an interface of our own rather
 * than a schema: checked at compile time, shown as any JSON in the document.
 */
import type {
  NetworkRestrictionsV2Response,
  OrganizationProjectsResponse,
  OrganizationResponseV1,
  ReadOnlyStatusResponse,
  RegionsInfo,
  SnippetList,
  SnippetResponse,
  StorageConfigResponse,
  UpdateCustomHostnameResponse,
  V1BackupsResponse,
  V1OrganizationMemberResponse,
  V1OrganizationSlugResponse,
  V1ProjectRefResponse,
  V1ProjectResponse,
  V1ProjectWithDatabaseResponse,
  V1StorageBucketResponse,
} from 'supabase-management-js'
import { z } from 'zod'
import { V1AvailableRegionsQuery, V1CreateOrganizationBody, V1CreateProjectBody, V1OrganizationProjectsQuery, V1SnippetsQuery, V1UpdateProjectBody } from './management-v1.js'
import { AdvisorsResponse, HealthQuery, Lint, SecurityAdvisorsQuery, ServiceHealth } from './advisors.js'
import { AiCompletionBody, AiKeyCheckResponse, AiTitleBody, AiTitleResponse } from './ai.js'
import { AiSettingsTestResponse, AiSettingsView, SaveAiSettingsBody } from './ai-settings.js'
import { ApiKeyResponse, ApiKeysLastUsed, ApiKeysQuery, CreateApiKeyBody, DeleteApiKeyQuery, JwtSecretUpdateBody, JwtSecretUpdateStatus, LegacyApiKeysQuery, LegacyApiKeysResponse, ProjectSettings, UpdateApiKeyBody } from './api-keys.js'
import { AssistantProjectContext, Chat, ChatSummary, CreateChatBody, UpdateAssistantProjectBody, UpdateChatBody } from './assistant.js'
import { AccessToken, ChangePasswordBody, CreateAccessTokenBody, CreatedAccessToken, LoginBody, OrgPermissions, Profile } from './auth.js'
import { ApplyAddonBody, Branch, BranchActionBody, BranchDetail, BranchUpdateResponse, CreateBranchBody, CreateGitHubConnectionBody, GitHubBranch, GitHubConnection, GitHubConnectionsQuery, PitrWindow, ProjectAddons, RestorePitrBody, UpdateBranchBody } from './branches.js'
import { ContentCountQuery, ContentCountResponse, ContentItem, ContentListQuery, ContentListResponse, CreateContentBody, CreateFolderBody, DeletedIds, Folder, FolderListResponse, IdsQuery, UpdateFolderBody, UpsertContentBody } from './content.js'
import { UpdateDatabasePasswordBody, UpdateDatabasePasswordResponse } from './database-access.js'
import { NetworkRestrictionsPatchRequest, NetworkRestrictionsRequest, PostgresConfig, SslEnforcementRequest, UpdatePostgresConfigBody } from './database-config.js'
import { DisableExtensionQuery, EnableExtensionBody, Extension } from './extensions.js'
import { CreateFunctionSecretsBody, DeleteFunctionSecretsBody, FunctionSecretResponse } from './function-secrets.js'
import { DeployFunctionQuery, FunctionFilesResponse, FunctionResponse } from './functions.js'
import { InstallationSettingsView, UpdateInstallationSettingsBody } from './installation.js'
import { AcceptedInvitation, CreatedInvitation, Invitation, InvitationDetails, InvitationSignUpBody, InviteMemberBody, ReceivedInvitation } from './invitations.js'
import { Backup, BackupDownload, BackupDownloadBody, DeletedProject, ExitSurveyBody, MemberAtFreeProjectLimit, PauseStatus, ResizeBody, RestoreBody, RestoreVersions } from './lifecycle.js'
import { LogQueryParams } from './logs.js'
import type { LogQueryResponse } from './logs.js'
import { ApiRestQuery, OpenApiDocument, PgMetaTable, PgMetaTablesQuery } from './meta.js'
import { OperationList } from './operations.js'
import {
  PgMetaColumnPrivileges,
  PgMetaFunction,
  PgMetaIndex,
  PgMetaPolicy,
  PgMetaPublication,
  PgMetaPublicationsQuery,
  PgMetaRole,
  PgMetaRolesQuery,
  PgMetaSchemaListQuery,
  PgMetaTrigger,
  PgMetaType,
  PgMetaTypesQuery,
} from './pg-meta-objects.js'
import { CreateOrganizationBody, Member, Organization, UpdateMemberBody, UpdateOrganizationBody, UpdateSubscriptionBody } from './organizations.js'
import { PostgrestConfigResponse, PostgrestConfigUpdateBody } from './postgrest-config.js'
import { RealtimeConfigResponse, RealtimeConfigUpdateBody } from './realtime-config.js'
import { AuthOutboxMessage, ProjectAuthSettings, ProjectAuthSettingsUpdate } from './project-auth.js'
import { CreateSigningKeyBody, SigningKeyResponse, SigningKeysResponse, UpdateSigningKeyBody } from './signing-keys.js'
import type { AuthUser, AuthUsersPage } from './project-auth.js'
import { AvailableVersionsBody, CreateProjectBody, DatabaseHealthBody, Project, ProjectStatusBody } from './projects.js'
import { CancelResponse, OngoingQueries, PidBody, SqlHistoryPage, SqlHistoryQuery, SqlQueryBody, SqlQueryResponse, TerminateResponse, V1MigrationBody, V1MigrationPatchBody, V1MigrationRollbackQuery, V1RunQueryBody } from './sql.js'
import { SqlExportBody, SqlExportTicket } from './sql-export.js'
import { Bucket, CreateBucketBody, StorageArchive, UpdateBucketBody, UpdateStorageConfigBody } from './storage.js'
import { CreateSupportRequestBody, SupportRequest } from './support.js'
import { TableImportResponse } from './table-import.js'
import { TypescriptResponse, TypescriptTypesQuery } from './type-generation.js'
import { DatabaseUpgradeStatus, UpgradeBody, UpgradeInitiated } from './upgrade.js'
import { DiskQuotaBody, UsageQuery } from './usage.js'
import type { DiskQuota, ProjectResourceWarnings, ProjectUsage } from './usage.js'

/** An answer with a TypeScript type and no run-time schema (the document shows any JSON). */
const answer = <T>() => z.custom<T>(() => true)
/**
 * An answer in a schema of the Management API reference (docs/reference/management-api-v1.openapi.json), typed by
 * the official client's type of the same name (supabase-management-js is generated from that document). The
 * generated document refers to the reference's schema; `Name[]` is a list of them.
 */
const reference = <T>(component: string) => z.custom<T>(() => true).meta({ 'x-management-api-schema': component })
/** An answer that carries nothing but success (201 {} or {}). */
const empty = z.strictObject({})
const operationStarted = z.object({ operation_id: z.string() })
/** What a migration's change or rollback says it did (the reference documents no content). */
const migrationDone = z.object({ message: z.string() })

/** What a route takes and answers. */
export interface RouteSchemas {
  body?: z.ZodType
  query?: z.ZodType
  response: z.ZodType
}

// ---- Answers and bodies described here, for want of a module of their own ----

/** GET /platform/database/{ref}/backups: every backup (physical and logical) and the point-in-time window. */
export const DatabaseBackups = z.object({
  region: z.string(),
  pitr_enabled: z.boolean(),
  walg_enabled: z.boolean(),
  backups: z.array(Backup),
  physical_backup_data: PitrWindow,
})
export type DatabaseBackups = z.output<typeof DatabaseBackups>

/** GET /v1/projects/{ref}/upgrade/eligibility. */
export const UpgradeEligibility = z.object({
  eligible: z.boolean(),
  current_app_version: z.string(),
  current_app_version_release_channel: z.literal('ga'),
  latest_app_version: z.string(),
  target_upgrade_versions: z.array(z.object({ postgres_version: z.string(), release_channel: z.literal('ga'), app_version: z.string() })),
  duration_estimate_hours: z.number(),
  legacy_auth_custom_roles: z.array(z.string()),
  objects_to_be_dropped: z.array(z.string()),
  unsupported_extensions: z.array(z.string()),
  user_defined_objects_in_internal_schemas: z.array(z.string()),
  /** What stands in the way: the reference's kinds (`type` and their fields), each with Stratum's plain-words `message`. */
  validation_errors: z.array(z.looseObject({ type: z.string(), message: z.string() })),
})
export type UpgradeEligibility = z.output<typeof UpgradeEligibility>

/** One recorded migration (supabase_migrations.schema_migrations), as the Management API lists it. */
export const MigrationSummary = z.object({ version: z.string(), name: z.string().optional() })
export type MigrationSummary = z.output<typeof MigrationSummary>

export const MigrationDetail = MigrationSummary.extend({
  statements: z.array(z.string()),
  rollback: z.array(z.string()).optional(),
  created_by: z.string().optional(),
})
export type MigrationDetail = z.output<typeof MigrationDetail>

/** GET /v1/projects/{ref}/network-restrictions and the answer of .../apply. */
export const NetworkRestrictions = z.object({
  entitlement: z.enum(['allowed', 'disallowed']),
  config: z.object({ dbAllowedCidrs: z.array(z.string()), dbAllowedCidrsV6: z.array(z.string()) }),
  status: z.enum(['stored', 'applied']),
  applied_at: z.string().optional(),
})
export type NetworkRestrictions = z.output<typeof NetworkRestrictions>

export const SslEnforcement = z.object({ currentConfig: z.object({ database: z.boolean() }), appliedSuccessfully: z.boolean() })
export type SslEnforcement = z.output<typeof SslEnforcement>

/** One entry of a folder listing, as storage-api answers it: folders have no id. */
export const StorageItem = z.object({
  name: z.string(),
  id: z.string().nullable(),
  updated_at: z.string().nullable(),
  created_at: z.string().nullable(),
  last_accessed_at: z.string().nullable(),
  metadata: z.object({ size: z.number().optional(), mimetype: z.string().optional(), cacheControl: z.string().optional() }).nullable(),
})
export type StorageItem = z.output<typeof StorageItem>

/** Bodies of storage-api's object calls, which the platform passes through to the project's storage service. */
export const StorageListBody = z.object({
  prefix: z.string(),
  limit: z.number().optional(),
  offset: z.number().optional(),
  sortBy: z.object({ column: z.enum(['name', 'updated_at', 'created_at', 'last_accessed_at']), order: z.enum(['asc', 'desc']) }).optional(),
  search: z.string().optional(),
})
export type StorageListBody = z.input<typeof StorageListBody>

/** GoTrue's admin user creation (the platform passes the body through to the project's auth server). */
export const CreateAuthUserBody = z.object({
  email: z.string(),
  /** Left out: the user signs in by a link (or sets one through recovery). */
  password: z.string().optional(),
  email_confirm: z.boolean(),
})
export type CreateAuthUserBody = z.input<typeof CreateAuthUserBody>

export const API_ROUTES = {
  // ---- Session and account ----
  'POST /api/auth/login': { body: LoginBody, response: Profile },
  'POST /api/auth/logout': { response: z.void() },
  'GET /platform/profile': { response: Profile },
  'PUT /platform/profile/password': { body: ChangePasswordBody, response: Profile },
  'GET /platform/profile/permissions': { response: z.array(OrgPermissions) },
  'GET /platform/profile/access-tokens': { response: z.array(AccessToken) },
  'POST /platform/profile/access-tokens': { body: CreateAccessTokenBody, response: CreatedAccessToken },
  'DELETE /platform/profile/access-tokens/{id}': { response: z.object({ id: z.string() }) },
  'GET /platform/profile/invitations': { response: z.array(ReceivedInvitation) },
  'DELETE /platform/profile/invitations/{id}': { response: z.object({ id: z.string() }) },

  // ---- Invitations ----
  'GET /platform/invitations/{token}': { response: InvitationDetails },
  'POST /platform/invitations/{token}/sign-up': { body: InvitationSignUpBody, response: AcceptedInvitation },
  'POST /platform/invitations/{token}/accept': { response: AcceptedInvitation },

  // ---- Organizations and members ----
  'GET /platform/organizations': { response: z.array(Organization) },
  'POST /platform/organizations': { body: CreateOrganizationBody, response: Organization },
  'GET /platform/organizations/{slug}': { response: Organization },
  'PATCH /platform/organizations/{slug}': { body: UpdateOrganizationBody, response: Organization },
  'PUT /platform/organizations/{slug}/billing/subscription': { body: UpdateSubscriptionBody, response: Organization },
  'POST /platform/organizations/{slug}/available-versions': { body: AvailableVersionsBody, response: RestoreVersions },
  'GET /platform/organizations/{slug}/members': { response: z.array(Member) },
  'PATCH /platform/organizations/{slug}/members/{user_id}': { body: UpdateMemberBody, response: Member },
  'DELETE /platform/organizations/{slug}/members/{user_id}': { response: z.object({ user_id: z.string() }) },
  'GET /platform/organizations/{slug}/members/invitations': { response: z.array(Invitation) },
  'POST /platform/organizations/{slug}/members/invitations': { body: InviteMemberBody, response: CreatedInvitation },
  'DELETE /platform/organizations/{slug}/members/invitations/{id}': { response: z.object({ id: z.string() }) },
  'GET /platform/organizations/{slug}/members/reached-free-project-limit': { response: z.array(MemberAtFreeProjectLimit) },

  // ---- Installation ----
  'GET /platform/installation/settings': { response: InstallationSettingsView },
  'PATCH /platform/installation/settings': { body: UpdateInstallationSettingsBody, response: InstallationSettingsView },
  'GET /platform/installation/ai-settings': { response: AiSettingsView },
  'PUT /platform/installation/ai-settings': { body: SaveAiSettingsBody, response: AiSettingsView },
  'DELETE /platform/installation/ai-settings': { response: AiSettingsView },
  'POST /platform/installation/ai-settings/test': { response: AiSettingsTestResponse },

  // ---- Projects ----
  'GET /platform/projects': { query: z.object({ organization_slug: z.string().optional() }).optional(), response: z.array(Project) },
  'POST /platform/projects': { body: CreateProjectBody, response: Project },
  'GET /platform/projects/{ref}': { response: Project },
  'DELETE /platform/projects/{ref}': { response: DeletedProject },
  'GET /platform/projects/{ref}/status': { response: ProjectStatusBody },
  'GET /platform/projects/{ref}/database/health': { response: DatabaseHealthBody },
  'GET /platform/projects/{ref}/settings': { response: ProjectSettings },
  'PATCH /platform/projects/{ref}/db-password': { body: UpdateDatabasePasswordBody, response: UpdateDatabasePasswordResponse },
  'GET /platform/projects-resource-warnings': { response: answer<ProjectResourceWarnings[]>() },
  'POST /platform/feedback/downgrade': { body: ExitSurveyBody, response: empty },

  // ---- Lifecycle, upgrades, usage ----
  'GET /platform/projects/{ref}/operations': { response: OperationList },
  'POST /platform/projects/{ref}/pause': { response: operationStarted },
  'GET /platform/projects/{ref}/pause/status': { response: PauseStatus },
  'POST /platform/projects/{ref}/restore': { body: RestoreBody, response: operationStarted },
  'GET /platform/projects/{ref}/restore/versions': { response: RestoreVersions },
  'POST /platform/projects/{ref}/restart': { response: operationStarted },
  'POST /platform/projects/{ref}/resize': { body: ResizeBody, response: operationStarted },
  'GET /v1/projects/{ref}/upgrade/eligibility': { response: UpgradeEligibility },
  'POST /v1/projects/{ref}/upgrade': { body: UpgradeBody, response: UpgradeInitiated },
  'GET /v1/projects/{ref}/upgrade/status': { query: z.object({ tracking_id: z.string().optional() }).optional(), response: DatabaseUpgradeStatus },
  'GET /platform/projects/{ref}/usage': { query: UsageQuery.optional(), response: answer<ProjectUsage>() },
  'GET /platform/projects/{ref}/disk': { response: answer<DiskQuota>() },
  'POST /platform/projects/{ref}/disk': { body: DiskQuotaBody, response: answer<DiskQuota>() },
  'POST /v1/projects/{ref}/readonly/temporary-disable': { body: empty.optional(), response: empty },

  // ---- Backups, point in time, add-ons ----
  'GET /platform/database/{ref}/backups': { response: DatabaseBackups },
  'GET /platform/database/{ref}/backups/downloadable-backups': { response: z.object({ backups: z.array(Backup) }) },
  'POST /platform/database/{ref}/backups/download': { body: BackupDownloadBody, response: BackupDownload },
  'POST /platform/database/{ref}/backups/pitr': { body: RestorePitrBody, response: operationStarted },
  'GET /v1/projects/{ref}/billing/addons': { response: ProjectAddons },
  /** Another retention answers {}; turning the add-on on restarts the project (an operation). */
  'PATCH /v1/projects/{ref}/billing/addons': { body: ApplyAddonBody, response: operationStarted.partial() },
  'DELETE /v1/projects/{ref}/billing/addons/{addon_variant}': { response: operationStarted },

  // ---- Database settings ----
  'GET /v1/projects/{ref}/config/database/postgres': { response: PostgresConfig.partial() },
  'PUT /v1/projects/{ref}/config/database/postgres': { body: UpdatePostgresConfigBody, response: PostgresConfig.partial() },
  'GET /v1/projects/{ref}/network-restrictions': { response: NetworkRestrictions },
  'POST /v1/projects/{ref}/network-restrictions/apply': { body: NetworkRestrictionsRequest, response: NetworkRestrictions },
  'GET /v1/projects/{ref}/ssl-enforcement': { response: SslEnforcement },
  'PUT /v1/projects/{ref}/ssl-enforcement': { body: SslEnforcementRequest, response: SslEnforcement },
  'GET /v1/projects/{ref}/database/migrations': { response: z.array(MigrationSummary) },
  'GET /v1/projects/{ref}/database/migrations/{version}': { response: MigrationDetail },
  'GET /platform/pg-meta/{ref}/extensions': { response: z.array(Extension) },
  'POST /platform/pg-meta/{ref}/extensions': { body: EnableExtensionBody, response: Extension },
  'DELETE /platform/pg-meta/{ref}/extensions': { query: DisableExtensionQuery, response: Extension },

  // ---- SQL ----
  /** The editor's run: read as a stream or as JSON by data/sql/runQuery.ts, not through request(). */
  'POST /platform/pg-meta/{ref}/query': { body: SqlQueryBody, response: SqlQueryResponse },
  'GET /platform/pg-meta/{ref}/query/ongoing': { response: OngoingQueries },
  'POST /platform/pg-meta/{ref}/query/cancel': { body: PidBody, response: CancelResponse },
  'POST /platform/pg-meta/{ref}/query/terminate': { body: PidBody, response: TerminateResponse },
  /** Starts an export of a query's whole result: the ticket's url is a one-time download link. */
  'POST /platform/pg-meta/{ref}/query/export': { body: SqlExportBody, response: SqlExportTicket },
  'GET /platform/pg-meta/{ref}/tables': { query: PgMetaTablesQuery.optional(), response: z.array(PgMetaTable) },
  /** The table editor's CSV import: the file is the raw text/csv body; its query (columns once per column) is built by the dashboard's importUrl. */
  'POST /platform/pg-meta/{ref}/tables/import': { response: TableImportResponse },
  // The Database pages' listings, in postgres-meta's shapes (pg-meta-objects.ts).
  'GET /platform/pg-meta/{ref}/functions': { query: PgMetaSchemaListQuery.optional(), response: z.array(PgMetaFunction) },
  'GET /platform/pg-meta/{ref}/triggers': { query: PgMetaSchemaListQuery.optional(), response: z.array(PgMetaTrigger) },
  'GET /platform/pg-meta/{ref}/types': { query: PgMetaTypesQuery.optional(), response: z.array(PgMetaType) },
  'GET /platform/pg-meta/{ref}/indexes': { query: PgMetaSchemaListQuery.optional(), response: z.array(PgMetaIndex) },
  'GET /platform/pg-meta/{ref}/publications': { query: PgMetaPublicationsQuery.optional(), response: z.array(PgMetaPublication) },
  'GET /platform/pg-meta/{ref}/roles': { query: PgMetaRolesQuery.optional(), response: z.array(PgMetaRole) },
  'GET /platform/pg-meta/{ref}/policies': { query: PgMetaSchemaListQuery.optional(), response: z.array(PgMetaPolicy) },
  'GET /platform/pg-meta/{ref}/column-privileges': { query: PgMetaSchemaListQuery.optional(), response: z.array(PgMetaColumnPrivileges) },
  'GET /platform/projects/{ref}/sql/history': { query: SqlHistoryQuery.optional(), response: SqlHistoryPage },

  // ---- Saved content (snippets, reports, folders) ----
  'GET /platform/projects/{ref}/content': { query: ContentListQuery.optional(), response: ContentListResponse },
  /** Sent by data/content/postContent.ts, with the header Version: 2 that request() does not send. */
  'POST /platform/projects/{ref}/content': { body: CreateContentBody, response: ContentItem },
  'PUT /platform/projects/{ref}/content': { body: UpsertContentBody, response: ContentItem },
  'DELETE /platform/projects/{ref}/content': { query: IdsQuery, response: DeletedIds },
  'GET /platform/projects/{ref}/content/count': { query: ContentCountQuery.optional(), response: ContentCountResponse },
  'GET /platform/projects/{ref}/content/item/{id}': { response: ContentItem },
  'GET /platform/projects/{ref}/content/folders': { query: ContentListQuery.optional(), response: FolderListResponse },
  'GET /platform/projects/{ref}/content/folders/{id}': { query: ContentListQuery.optional(), response: FolderListResponse },
  'POST /platform/projects/{ref}/content/folders': { body: CreateFolderBody, response: Folder },
  'PUT /platform/projects/{ref}/content/folders/{id}': { body: UpdateFolderBody, response: Folder },
  'DELETE /platform/projects/{ref}/content/folders': { query: IdsQuery, response: DeletedIds },

  // ---- API keys, JWT secret, API docs ----
  'GET /platform/projects/{ref}/api-keys/last-used': { response: ApiKeysLastUsed },
  'POST /platform/projects/{ref}/config/secrets': { body: JwtSecretUpdateBody, response: JwtSecretUpdateStatus },
  'GET /platform/projects/{ref}/config/secrets/update-status': { response: JwtSecretUpdateStatus },
  'GET /v1/projects/{ref}/api-keys': { query: ApiKeysQuery.optional(), response: z.array(ApiKeyResponse) },
  'POST /v1/projects/{ref}/api-keys': { query: ApiKeysQuery.optional(), body: CreateApiKeyBody, response: ApiKeyResponse },
  'GET /v1/projects/{ref}/api-keys/{id}': { query: ApiKeysQuery.optional(), response: ApiKeyResponse },
  'DELETE /v1/projects/{ref}/api-keys/{id}': { query: DeleteApiKeyQuery.optional(), response: ApiKeyResponse },
  'GET /v1/projects/{ref}/api-keys/legacy': { response: LegacyApiKeysResponse },
  'PUT /v1/projects/{ref}/api-keys/legacy': { query: LegacyApiKeysQuery, response: LegacyApiKeysResponse },
  'GET /v1/projects/{ref}/types/typescript': { query: TypescriptTypesQuery.optional(), response: TypescriptResponse },
  'GET /platform/projects/{ref}/api/rest': { query: ApiRestQuery.optional(), response: OpenApiDocument },

  // ---- Project settings: PostgREST, Auth ----
  'GET /platform/projects/{ref}/config/postgrest': { response: PostgrestConfigResponse },
  'PATCH /platform/projects/{ref}/config/postgrest': { body: PostgrestConfigUpdateBody, response: PostgrestConfigResponse },
  'GET /platform/projects/{ref}/config/realtime': { response: RealtimeConfigResponse },
  'PATCH /platform/projects/{ref}/config/realtime': { body: RealtimeConfigUpdateBody, response: RealtimeConfigResponse },
  'POST /platform/projects/{ref}/config/realtime/shutdown': { response: empty },
  'GET /platform/auth/{ref}/config': { response: ProjectAuthSettings },
  'PATCH /platform/auth/{ref}/config': { body: ProjectAuthSettingsUpdate, response: ProjectAuthSettings },
  'GET /platform/projects/{ref}/auth/outbox': { response: z.array(AuthOutboxMessage) },
  'GET /platform/auth/{ref}/users': { query: z.object({ page: z.number().optional(), per_page: z.number().optional(), keywords: z.string().optional() }).optional(), response: answer<AuthUsersPage>() },
  'POST /platform/auth/{ref}/users': { body: CreateAuthUserBody, response: answer<AuthUser>() },
  'DELETE /platform/auth/{ref}/users/{id}': { response: answer<object>() },
  'POST /platform/auth/{ref}/invite': { body: z.object({ email: z.string() }), response: answer<AuthUser>() },
  'POST /platform/auth/{ref}/recover': { body: z.object({ email: z.string() }), response: answer<object>() },

  // ---- Logs, advisors, assistant, AI ----
  'GET /platform/projects/{ref}/analytics/endpoints/logs.all': { query: LogQueryParams.optional(), response: answer<LogQueryResponse>() },
  'GET /platform/projects/{ref}/run-lints': { response: z.array(Lint) },
  'GET /platform/projects/{ref}/assistant': { response: AssistantProjectContext },
  'PATCH /platform/projects/{ref}/assistant': { body: UpdateAssistantProjectBody, response: AssistantProjectContext },
  'GET /platform/projects/{ref}/assistant/chats': { response: z.array(ChatSummary) },
  'POST /platform/projects/{ref}/assistant/chats': { body: CreateChatBody, response: Chat },
  'GET /platform/projects/{ref}/assistant/chats/{id}': { response: Chat },
  'PATCH /platform/projects/{ref}/assistant/chats/{id}': { body: UpdateChatBody, response: Chat },
  'DELETE /platform/projects/{ref}/assistant/chats/{id}': { response: z.void() },
  'GET /api/ai/sql/check-api-key': { response: AiKeyCheckResponse },
  'POST /api/ai/sql/title-v2': { body: AiTitleBody, response: AiTitleResponse },
  /** A text stream, read by data/ai/streamSqlCompletion.ts. */
  'POST /api/ai/sql/complete-v2': { body: AiCompletionBody, response: z.string() },

  // ---- Storage ----
  'GET /platform/storage/{ref}/buckets': { response: z.array(Bucket) },
  'POST /platform/storage/{ref}/buckets': { body: CreateBucketBody, response: Bucket },
  'PUT /platform/storage/{ref}/buckets/{id}': { body: UpdateBucketBody, response: Bucket },
  'DELETE /platform/storage/{ref}/buckets/{id}': { response: z.object({ message: z.string() }) },
  'POST /platform/storage/{ref}/archive': { response: empty },
  'GET /platform/storage/{ref}/archive': { response: StorageArchive },
  'POST /platform/storage/{ref}/objects/list/{bucket}': { body: StorageListBody, response: z.array(StorageItem) },
  'DELETE /platform/storage/{ref}/objects/{bucket}': { body: z.object({ prefixes: z.array(z.string()) }), response: z.array(z.object({ name: z.string() })) },
  'POST /platform/storage/{ref}/objects/move': { body: z.object({ bucketId: z.string(), sourceKey: z.string(), destinationKey: z.string() }), response: z.object({ message: z.string() }) },
  'POST /platform/storage/{ref}/objects/sign/{bucket}/{...path}': { body: z.object({ expiresIn: z.number() }), response: z.object({ signedURL: z.string() }) },
  /** The object's bytes (opened as a URL, or uploaded with progress by data/storage/objects.ts). */
  'GET /platform/storage/{ref}/objects/{bucket}/{...path}': { response: z.unknown() },
  'POST /platform/storage/{ref}/objects/{bucket}/{...path}': { response: z.object({ Id: z.string(), Key: z.string() }) },

  // ---- Edge functions ----
  'GET /v1/projects/{ref}/functions': { response: z.array(FunctionResponse) },
  'GET /v1/projects/{ref}/functions/{function_slug}': { response: FunctionResponse },
  'DELETE /v1/projects/{ref}/functions/{function_slug}': { response: FunctionResponse },
  /** Multipart upload, sent by data/functions/useDeployFunction.ts. */
  'POST /v1/projects/{ref}/functions/deploy': { query: DeployFunctionQuery, response: FunctionResponse },
  'GET /platform/projects/{ref}/functions/{function_slug}/files': { response: FunctionFilesResponse },
  'GET /v1/projects/{ref}/secrets': { response: z.array(FunctionSecretResponse) },
  'POST /v1/projects/{ref}/secrets': { body: CreateFunctionSecretsBody, response: empty },
  'DELETE /v1/projects/{ref}/secrets': { body: DeleteFunctionSecretsBody, response: empty },

  // ---- Branching and GitHub ----
  'GET /v1/projects/{ref}/branches': { response: z.array(Branch) },
  'POST /v1/projects/{ref}/branches': { body: CreateBranchBody, response: Branch },
  'DELETE /v1/projects/{ref}/branches': { response: z.object({ message: z.string() }) },
  'DELETE /v1/branches/{branch_id_or_ref}': { response: z.object({ message: z.string() }) },
  'POST /v1/branches/{branch_id_or_ref}/reset': { body: BranchActionBody, response: BranchUpdateResponse },
  'POST /v1/branches/{branch_id_or_ref}/merge': { body: BranchActionBody, response: BranchUpdateResponse },
  'POST /v1/branches/{branch_id_or_ref}/push': { body: BranchActionBody, response: BranchUpdateResponse },
  /** Plain text (the SQL), read by data/branches/useBranchDiff.ts. */
  'GET /v1/branches/{branch_id_or_ref}/diff': { response: z.string() },
  'GET /platform/integrations/github/connections': { query: GitHubConnectionsQuery, response: z.object({ connections: z.array(GitHubConnection) }) },
  'POST /platform/integrations/github/connections': { body: CreateGitHubConnectionBody, response: GitHubConnection },
  'DELETE /platform/integrations/github/connections/{connectionId}': { response: z.void() },
  'GET /platform/integrations/github/branches/{connectionId}/{branchName}': { response: GitHubBranch },

  // ---- Support ----
  'GET /platform/support/requests': { response: z.array(SupportRequest) },
  'POST /platform/support/requests': { body: CreateSupportRequestBody, response: SupportRequest },
  // ---- Management API (/v1) routes the dashboard does not call: answers of the reference's own schemas ----
  'GET /v1/organizations': { response: reference<OrganizationResponseV1[]>('OrganizationResponseV1[]') },
  'POST /v1/organizations': { body: V1CreateOrganizationBody, response: reference<OrganizationResponseV1>('OrganizationResponseV1') },
  'GET /v1/organizations/{slug}': { response: reference<V1OrganizationSlugResponse>('V1OrganizationSlugResponse') },
  'GET /v1/organizations/{slug}/members': { response: reference<V1OrganizationMemberResponse[]>('V1OrganizationMemberResponse[]') },
  'GET /v1/organizations/{slug}/projects': { query: V1OrganizationProjectsQuery.optional(), response: reference<OrganizationProjectsResponse>('OrganizationProjectsResponse') },
  'GET /v1/projects': { response: reference<V1ProjectWithDatabaseResponse[]>('V1ProjectWithDatabaseResponse[]') },
  'POST /v1/projects': { body: V1CreateProjectBody, response: reference<V1ProjectResponse>('V1ProjectResponse') },
  'GET /v1/projects/{ref}': { response: reference<V1ProjectWithDatabaseResponse>('V1ProjectWithDatabaseResponse') },
  'GET /v1/projects/available-regions': { query: V1AvailableRegionsQuery, response: reference<RegionsInfo>('RegionsInfo') },
  'PATCH /v1/projects/{ref}': { body: V1UpdateProjectBody, response: reference<V1ProjectRefResponse>('V1ProjectRefResponse') },
  'DELETE /v1/projects/{ref}': { response: reference<V1ProjectRefResponse>('V1ProjectRefResponse') },
  'POST /v1/projects/{ref}/pause': { response: operationStarted },
  'POST /v1/projects/{ref}/restore': { body: RestoreBody.optional(), response: operationStarted },
  'GET /v1/projects/{ref}/restore': { response: RestoreVersions },
  'GET /v1/projects/{ref}/database/backups': { response: reference<V1BackupsResponse>('V1BackupsResponse') },
  'GET /v1/projects/{ref}/readonly': { response: reference<ReadOnlyStatusResponse>('ReadOnlyStatusResponse') },
  /** The reference's V1ServiceHealthResponse, and 'functions' (the project's edge runtime) beside its services. */
  'GET /v1/projects/{ref}/health': { query: HealthQuery, response: z.array(ServiceHealth) },
  /** The rows of the last statement, as JSON objects. */
  'POST /v1/projects/{ref}/database/query': { body: V1RunQueryBody, response: z.array(z.record(z.string(), z.unknown())) },
  'POST /v1/projects/{ref}/database/query/read-only': { body: V1RunQueryBody.omit({ read_only: true }), response: z.array(z.record(z.string(), z.unknown())) },
  'POST /v1/projects/{ref}/database/migrations': { body: V1MigrationBody, response: MigrationSummary },
  'PUT /v1/projects/{ref}/database/migrations': { body: V1MigrationBody, response: MigrationSummary },
  'PATCH /v1/projects/{ref}/database/migrations/{version}': { body: V1MigrationPatchBody, response: migrationDone },
  'DELETE /v1/projects/{ref}/database/migrations': { query: V1MigrationRollbackQuery, response: migrationDone.extend({ versions: z.array(z.string()).optional() }) },
  'PATCH /v1/projects/{ref}/database/password': { body: UpdateDatabasePasswordBody, response: UpdateDatabasePasswordResponse },
  'PATCH /v1/projects/{ref}/network-restrictions': { body: NetworkRestrictionsPatchRequest, response: reference<NetworkRestrictionsV2Response>('NetworkRestrictionsV2Response') },
  'PATCH /v1/projects/{ref}/api-keys/{id}': { query: ApiKeysQuery.optional(), body: UpdateApiKeyBody, response: ApiKeyResponse },
  /** The function's source, as the files it was deployed with (an eszip in Supabase; a multipart body here). */
  'GET /v1/projects/{ref}/functions/{function_slug}/body': { response: z.string() },
  'GET /v1/projects/{ref}/config/auth': { response: ProjectAuthSettings },
  'PATCH /v1/projects/{ref}/config/auth': { body: ProjectAuthSettingsUpdate, response: ProjectAuthSettings },
  'GET /v1/projects/{ref}/config/auth/signing-keys': { response: SigningKeysResponse },
  'POST /v1/projects/{ref}/config/auth/signing-keys': { body: CreateSigningKeyBody, response: SigningKeyResponse },
  'GET /v1/projects/{ref}/config/auth/signing-keys/legacy': { response: SigningKeyResponse },
  'POST /v1/projects/{ref}/config/auth/signing-keys/legacy': { response: SigningKeyResponse },
  'GET /v1/projects/{ref}/config/auth/signing-keys/{id}': { response: SigningKeyResponse },
  'PATCH /v1/projects/{ref}/config/auth/signing-keys/{id}': { body: UpdateSigningKeyBody, response: SigningKeyResponse },
  'DELETE /v1/projects/{ref}/config/auth/signing-keys/{id}': { response: SigningKeyResponse },
  'GET /v1/projects/{ref}/postgrest': { response: PostgrestConfigResponse },
  'PATCH /v1/projects/{ref}/postgrest': { body: PostgrestConfigUpdateBody, response: PostgrestConfigResponse },
  'GET /v1/projects/{ref}/config/realtime': { response: RealtimeConfigResponse },
  'PATCH /v1/projects/{ref}/config/realtime': { body: RealtimeConfigUpdateBody, response: empty },
  'POST /v1/projects/{ref}/config/realtime/shutdown': { response: empty },
  'GET /v1/projects/{ref}/config/storage': { response: reference<StorageConfigResponse>('StorageConfigResponse') },
  'PATCH /v1/projects/{ref}/config/storage': { body: UpdateStorageConfigBody, response: reference<StorageConfigResponse>('StorageConfigResponse') },
  'GET /v1/projects/{ref}/storage/buckets': { response: reference<V1StorageBucketResponse[]>('V1StorageBucketResponse[]') },
  'GET /v1/projects/{ref}/custom-hostname': { response: reference<UpdateCustomHostnameResponse>('UpdateCustomHostnameResponse') },
  'GET /v1/projects/{ref}/advisors/performance': { response: AdvisorsResponse },
  'GET /v1/projects/{ref}/advisors/security': { query: SecurityAdvisorsQuery.optional(), response: AdvisorsResponse },
  'GET /v1/projects/{ref}/analytics/endpoints/logs.all': { query: LogQueryParams.optional(), response: answer<LogQueryResponse>() },
  'GET /v1/snippets': { query: V1SnippetsQuery.optional(), response: reference<SnippetList>('SnippetList') },
  'GET /v1/snippets/{id}': { response: reference<SnippetResponse>('SnippetResponse') },
  'GET /v1/projects/{ref}/branches/{name}': { response: Branch },
  'GET /v1/branches/{branch_id_or_ref}': { response: BranchDetail },
  'PATCH /v1/branches/{branch_id_or_ref}': { body: UpdateBranchBody, response: Branch },
  'POST /v1/projects/{ref}/database/backups/restore-pitr': { body: RestorePitrBody, response: empty },
} satisfies Record<string, RouteSchemas>

type QueryValue = string | number | boolean
/**
 * One query field as a caller may give it: the URL carries text, so a field the schema reads from any string (or
 * coerces) takes any query value, a 'true' | 'false' field takes a boolean too, and an enum keeps its literals.
 */
type QueryField<T> = string extends T
  ? QueryValue
  : [Exclude<T, undefined>] extends ['true' | 'false']
    ? boolean | 'true' | 'false'
    : T extends QueryValue | undefined
      ? T
      : QueryValue
/** A query string's fields, named by the server's schema: a field the schema lacks fails to compile. */
type QueryOf<T> = { [K in keyof T]?: QueryField<T[K]> }
/** `{ [name]: T }`, or `{ [name]?: T }` when the schema takes undefined (made `.optional()`). */
type Part<Name extends string, S, T> = S extends z.ZodType ? (undefined extends z.input<S> ? { [K in Name]?: T } : { [K in Name]: T }) : unknown
type RouteTypes<R extends RouteSchemas> = Part<'body', R['body'], Exclude<z.input<NonNullable<R['body']>>, undefined>> &
  Part<'query', R['query'], QueryOf<Exclude<z.input<NonNullable<R['query']>>, undefined>>> & { response: z.output<R['response']> }

/** Each route's types: body and query as a caller sends them, the response as it reads it. */
export type ApiRoutes = { [K in keyof typeof API_ROUTES]: RouteTypes<(typeof API_ROUTES)[K]> }
export type ApiRouteKey = keyof ApiRoutes

/**
 * The platform's HTTP routes as the dashboard calls them: 'METHOD /path/{param}' -> what the call sends
 * (body, query) and what it answers (response). The dashboard's typed client (apps/dashboard/src/data/request.ts)
 * takes its keys, so a path or a shape that drifts from here fails to compile; a server test
 * (apps/platform/test/server/route-map.test.ts) checks every key is a route the platform registers.
 *
 * Types only: nothing here exists at run time. {name} is one path segment; {...name} is the rest of the path
 * (served by a wildcard route). Bodies are what a caller may send (the schema's input); responses what it reads.
 */
import type { z } from 'zod'
import type { Lint } from './advisors.js'
import type { AiCompletionBody, AiKeyCheckResponse, AiTitleBody, AiTitleResponse } from './ai.js'
import type { AiSettingsTestResponse, AiSettingsView, SaveAiSettingsBody } from './ai-settings.js'
import type {
  ApiKeyResponse,
  ApiKeysLastUsed,
  ApiKeysQuery,
  CreateApiKeyBody,
  DeleteApiKeyQuery,
  JwtSecretUpdateBody,
  JwtSecretUpdateStatus,
  LegacyApiKeysQuery,
  LegacyApiKeysResponse,
  ProjectSettings,
} from './api-keys.js'
import type { AssistantProjectContext, Chat, ChatSummary, CreateChatBody, UpdateAssistantProjectBody, UpdateChatBody } from './assistant.js'
import type { AccessToken, ChangePasswordBody, CreateAccessTokenBody, CreatedAccessToken, LoginBody, OrgPermissions, Profile } from './auth.js'
import type {
  ApplyAddonBody,
  Branch,
  BranchActionBody,
  BranchUpdateResponse,
  CreateBranchBody,
  CreateGitHubConnectionBody,
  GitHubBranch,
  GitHubConnection,
  GitHubConnectionsQuery,
  PitrWindow,
  ProjectAddons,
  RestorePitrBody,
} from './branches.js'
import type {
  ContentCountQuery,
  ContentCountResponse,
  ContentItem,
  ContentListQuery,
  ContentListResponse,
  CreateContentBody,
  CreateFolderBody,
  DeletedIds,
  Folder,
  FolderListResponse,
  IdsQuery,
  UpdateFolderBody,
  UpsertContentBody,
} from './content.js'
import type { UpdateDatabasePasswordBody, UpdateDatabasePasswordResponse } from './database-access.js'
import type { NetworkRestrictionsRequest, PostgresConfig, SslEnforcementRequest, UpdatePostgresConfigBody } from './database-config.js'
import type { DisableExtensionQuery, EnableExtensionBody, Extension } from './extensions.js'
import type { CreateFunctionSecretsBody, DeleteFunctionSecretsBody, FunctionSecretResponse } from './function-secrets.js'
import type { DeployFunctionQuery, FunctionFilesResponse, FunctionResponse } from './functions.js'
import type { InstallationSettingsView, UpdateInstallationSettingsBody } from './installation.js'
import type {
  AcceptedInvitation,
  CreatedInvitation,
  Invitation,
  InvitationDetails,
  InvitationSignUpBody,
  InviteMemberBody,
  ReceivedInvitation,
} from './invitations.js'
import type {
  Backup,
  BackupDownload,
  BackupDownloadBody,
  DeletedProject,
  ExitSurveyBody,
  MemberAtFreeProjectLimit,
  PauseStatus,
  ResizeBody,
  RestoreBody,
  RestoreVersions,
} from './lifecycle.js'
import type { LogQueryParams, LogQueryResponse } from './logs.js'
import type { ApiRestQuery, OpenApiDocument, PgMetaTable, PgMetaTablesQuery } from './meta.js'
import type { OperationList } from './operations.js'
import type {
  CreateOrganizationBody,
  Member,
  Organization,
  UpdateMemberBody,
  UpdateOrganizationBody,
  UpdateSubscriptionBody,
} from './organizations.js'
import type { PostgrestConfigResponse, PostgrestConfigUpdateBody } from './postgrest-config.js'
import type { AuthOutboxMessage, AuthUser, AuthUsersPage, ProjectAuthSettings, ProjectAuthSettingsUpdate } from './project-auth.js'
import type { AvailableVersionsBody, CreateProjectBody, Project, ProjectStatusBody } from './projects.js'
import type { CancelResponse, OngoingQueries, PidBody, SqlHistoryPage, SqlHistoryQuery, SqlQueryBody, SqlQueryResponse, TerminateResponse } from './sql.js'
import type { SqlExportBody, SqlExportTicket } from './sql-export.js'
import type { Bucket, CreateBucketBody, StorageArchive, UpdateBucketBody } from './storage.js'
import type { CreateSupportRequestBody, SupportRequest } from './support.js'
import type { TableImportResponse } from './table-import.js'
import type { TypescriptResponse, TypescriptTypesQuery } from './type-generation.js'
import type { DatabaseUpgradeStatus, UpgradeBody, UpgradeInitiated } from './upgrade.js'
import type { DiskQuota, DiskQuotaBody, ProjectResourceWarnings, ProjectUsage, UsageQuery } from './usage.js'

/** What a caller sends for a schema (before defaults and transforms). */
type In<S extends z.ZodType> = z.input<S>
/** What a caller reads back for a schema. */
type Out<S extends z.ZodType> = z.output<S>
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
type QueryOf<S extends z.ZodType> = { [K in keyof In<S>]?: QueryField<In<S>[K]> }
/** An answer that carries nothing but success (201 {} or {}). */
type Empty = Record<string, never>
interface OperationStarted {
  operation_id: string
}

// ---- Answers the server builds in its handlers, without a schema of their own ----

/** GET /platform/database/{ref}/backups: every backup (physical and logical) and the point-in-time window. */
export interface DatabaseBackups {
  region: string
  pitr_enabled: boolean
  walg_enabled: boolean
  backups: Backup[]
  physical_backup_data: PitrWindow
}

/** GET /v1/projects/{ref}/upgrade/eligibility (the reference's fields the dashboard reads). */
export interface UpgradeEligibility {
  eligible: boolean
  current_app_version: string
  target_upgrade_versions: { postgres_version: string; app_version: string }[]
  unsupported_extensions: string[]
  /** What stands in the way, each with `type` (the reference's kinds) and Stratum's plain-words `message`. */
  validation_errors: { type: string; message: string }[]
}

/** One recorded migration (supabase_migrations.schema_migrations), as the Management API lists it. */
export interface MigrationSummary {
  version: string
  name?: string
}

export interface MigrationDetail extends MigrationSummary {
  statements: string[]
  rollback?: string[]
  created_by?: string
}

/** GET /v1/projects/{ref}/network-restrictions and the answer of .../apply. */
export interface NetworkRestrictions {
  entitlement: 'allowed' | 'disallowed'
  config: { dbAllowedCidrs: string[]; dbAllowedCidrsV6: string[] }
  status: 'stored' | 'applied'
  applied_at?: string
}

export interface SslEnforcement {
  currentConfig: { database: boolean }
  appliedSuccessfully: boolean
}

/** One entry of a folder listing, as storage-api answers it: folders have no id. */
export interface StorageItem {
  name: string
  id: string | null
  updated_at: string | null
  created_at: string | null
  last_accessed_at: string | null
  metadata: { size?: number; mimetype?: string; cacheControl?: string } | null
}

/** Bodies of storage-api's object calls, which the platform passes through unparsed. */
export interface StorageListBody {
  prefix: string
  limit?: number
  offset?: number
  sortBy?: { column: 'name' | 'updated_at' | 'created_at' | 'last_accessed_at'; order: 'asc' | 'desc' }
  search?: string
}

/** GoTrue's admin user creation (the platform passes the body through to the project's auth server). */
export interface CreateAuthUserBody {
  email: string
  /** Left out: the user signs in by a link (or sets one through recovery). */
  password?: string
  email_confirm: boolean
}

export interface ApiRoutes {
  // ---- Session and account ----
  'POST /api/auth/login': { body: In<typeof LoginBody>; response: Profile }
  'POST /api/auth/logout': { response: void }
  'GET /platform/profile': { response: Profile }
  'PUT /platform/profile/password': { body: In<typeof ChangePasswordBody>; response: Profile }
  'GET /platform/profile/permissions': { response: OrgPermissions[] }
  'GET /platform/profile/access-tokens': { response: AccessToken[] }
  'POST /platform/profile/access-tokens': { body: In<typeof CreateAccessTokenBody>; response: CreatedAccessToken }
  'DELETE /platform/profile/access-tokens/{id}': { response: { id: string } }
  'GET /platform/profile/invitations': { response: ReceivedInvitation[] }
  'DELETE /platform/profile/invitations/{id}': { response: { id: string } }

  // ---- Invitations ----
  'GET /platform/invitations/{token}': { response: InvitationDetails }
  'POST /platform/invitations/{token}/sign-up': { body: In<typeof InvitationSignUpBody>; response: AcceptedInvitation }
  'POST /platform/invitations/{token}/accept': { response: AcceptedInvitation }

  // ---- Organizations and members ----
  'GET /platform/organizations': { response: Organization[] }
  'POST /platform/organizations': { body: In<typeof CreateOrganizationBody>; response: Organization }
  'GET /platform/organizations/{slug}': { response: Organization }
  'PATCH /platform/organizations/{slug}': { body: In<typeof UpdateOrganizationBody>; response: Organization }
  'PUT /platform/organizations/{slug}/billing/subscription': { body: In<typeof UpdateSubscriptionBody>; response: Organization }
  'POST /platform/organizations/{slug}/available-versions': { body: In<typeof AvailableVersionsBody>; response: RestoreVersions }
  'GET /platform/organizations/{slug}/members': { response: Member[] }
  'PATCH /platform/organizations/{slug}/members/{user_id}': { body: In<typeof UpdateMemberBody>; response: Member }
  'DELETE /platform/organizations/{slug}/members/{user_id}': { response: { user_id: string } }
  'GET /platform/organizations/{slug}/members/invitations': { response: Invitation[] }
  'POST /platform/organizations/{slug}/members/invitations': { body: In<typeof InviteMemberBody>; response: CreatedInvitation }
  'DELETE /platform/organizations/{slug}/members/invitations/{id}': { response: { id: string } }
  'GET /platform/organizations/{slug}/members/reached-free-project-limit': { response: MemberAtFreeProjectLimit[] }

  // ---- Installation ----
  'GET /platform/installation/settings': { response: InstallationSettingsView }
  'PATCH /platform/installation/settings': { body: In<typeof UpdateInstallationSettingsBody>; response: InstallationSettingsView }
  'GET /platform/installation/ai-settings': { response: AiSettingsView }
  'PUT /platform/installation/ai-settings': { body: In<typeof SaveAiSettingsBody>; response: AiSettingsView }
  'DELETE /platform/installation/ai-settings': { response: AiSettingsView }
  'POST /platform/installation/ai-settings/test': { response: AiSettingsTestResponse }

  // ---- Projects ----
  'GET /platform/projects': { query?: { organization_slug?: string }; response: Project[] }
  'POST /platform/projects': { body: In<typeof CreateProjectBody>; response: Project }
  'GET /platform/projects/{ref}': { response: Project }
  'DELETE /platform/projects/{ref}': { response: Out<typeof DeletedProject> }
  'GET /platform/projects/{ref}/status': { response: Out<typeof ProjectStatusBody> }
  'GET /platform/projects/{ref}/settings': { response: ProjectSettings }
  'PATCH /platform/projects/{ref}/db-password': { body: In<typeof UpdateDatabasePasswordBody>; response: UpdateDatabasePasswordResponse }
  'GET /platform/projects-resource-warnings': { response: ProjectResourceWarnings[] }
  'POST /platform/feedback/downgrade': { body: In<typeof ExitSurveyBody>; response: Empty }

  // ---- Lifecycle, upgrades, usage ----
  'GET /platform/projects/{ref}/operations': { response: OperationList }
  'POST /platform/projects/{ref}/pause': { response: OperationStarted }
  'GET /platform/projects/{ref}/pause/status': { response: PauseStatus }
  'POST /platform/projects/{ref}/restore': { body: In<typeof RestoreBody>; response: OperationStarted }
  'GET /platform/projects/{ref}/restore/versions': { response: RestoreVersions }
  'POST /platform/projects/{ref}/restart': { response: OperationStarted }
  'POST /platform/projects/{ref}/resize': { body: In<typeof ResizeBody>; response: OperationStarted }
  'GET /v1/projects/{ref}/upgrade/eligibility': { response: UpgradeEligibility }
  'POST /v1/projects/{ref}/upgrade': { body: In<typeof UpgradeBody>; response: Out<typeof UpgradeInitiated> }
  'GET /v1/projects/{ref}/upgrade/status': { query?: { tracking_id?: string }; response: DatabaseUpgradeStatus }
  'GET /platform/projects/{ref}/usage': { query?: QueryOf<typeof UsageQuery>; response: ProjectUsage }
  'GET /platform/projects/{ref}/disk': { response: DiskQuota }
  'POST /platform/projects/{ref}/disk': { body: In<typeof DiskQuotaBody>; response: DiskQuota }
  'POST /v1/projects/{ref}/readonly/temporary-disable': { body?: Empty; response: Empty }

  // ---- Backups, point in time, add-ons ----
  'GET /platform/database/{ref}/backups': { response: DatabaseBackups }
  'GET /platform/database/{ref}/backups/downloadable-backups': { response: { backups: Backup[] } }
  'POST /platform/database/{ref}/backups/download': { body: In<typeof BackupDownloadBody>; response: Out<typeof BackupDownload> }
  'POST /platform/database/{ref}/backups/pitr': { body: In<typeof RestorePitrBody>; response: OperationStarted }
  'GET /v1/projects/{ref}/billing/addons': { response: ProjectAddons }
  /** Another retention answers {}; turning the add-on on restarts the project (an operation). */
  'PATCH /v1/projects/{ref}/billing/addons': { body: In<typeof ApplyAddonBody>; response: Partial<OperationStarted> }
  'DELETE /v1/projects/{ref}/billing/addons/{addon_variant}': { response: OperationStarted }

  // ---- Database settings ----
  'GET /v1/projects/{ref}/config/database/postgres': { response: Partial<PostgresConfig> }
  'PUT /v1/projects/{ref}/config/database/postgres': { body: In<typeof UpdatePostgresConfigBody>; response: Partial<PostgresConfig> }
  'GET /v1/projects/{ref}/network-restrictions': { response: NetworkRestrictions }
  'POST /v1/projects/{ref}/network-restrictions/apply': { body: In<typeof NetworkRestrictionsRequest>; response: NetworkRestrictions }
  'GET /v1/projects/{ref}/ssl-enforcement': { response: SslEnforcement }
  'PUT /v1/projects/{ref}/ssl-enforcement': { body: In<typeof SslEnforcementRequest>; response: SslEnforcement }
  'GET /v1/projects/{ref}/database/migrations': { response: MigrationSummary[] }
  'GET /v1/projects/{ref}/database/migrations/{version}': { response: MigrationDetail }
  'GET /platform/pg-meta/{ref}/extensions': { response: Extension[] }
  'POST /platform/pg-meta/{ref}/extensions': { body: In<typeof EnableExtensionBody>; response: Extension }
  'DELETE /platform/pg-meta/{ref}/extensions': { query: QueryOf<typeof DisableExtensionQuery>; response: Extension }

  // ---- SQL ----
  /** The editor's run: read as a stream or as JSON by data/sql/runQuery.ts, not through request(). */
  'POST /platform/pg-meta/{ref}/query': { body: In<typeof SqlQueryBody>; response: SqlQueryResponse }
  'GET /platform/pg-meta/{ref}/query/ongoing': { response: Out<typeof OngoingQueries> }
  'POST /platform/pg-meta/{ref}/query/cancel': { body: In<typeof PidBody>; response: Out<typeof CancelResponse> }
  'POST /platform/pg-meta/{ref}/query/terminate': { body: In<typeof PidBody>; response: Out<typeof TerminateResponse> }
  /** Starts an export of a query's whole result: the ticket's url is a one-time download link. */
  'POST /platform/pg-meta/{ref}/query/export': { body: In<typeof SqlExportBody>; response: SqlExportTicket }
  'GET /platform/pg-meta/{ref}/tables': { query?: QueryOf<typeof PgMetaTablesQuery>; response: PgMetaTable[] }
  /** The table editor's CSV import: the file is the raw text/csv body; its query (columns once per column) is built by the dashboard's importUrl. */
  'POST /platform/pg-meta/{ref}/tables/import': { response: TableImportResponse }
  'GET /platform/projects/{ref}/sql/history': { query?: QueryOf<typeof SqlHistoryQuery>; response: SqlHistoryPage }

  // ---- Saved content (snippets, reports, folders) ----
  'GET /platform/projects/{ref}/content': { query?: QueryOf<typeof ContentListQuery>; response: Out<typeof ContentListResponse> }
  /** Sent by data/content/postContent.ts, with the header Version: 2 that request() does not send. */
  'POST /platform/projects/{ref}/content': { body: In<typeof CreateContentBody>; response: ContentItem }
  'PUT /platform/projects/{ref}/content': { body: In<typeof UpsertContentBody>; response: ContentItem }
  'DELETE /platform/projects/{ref}/content': { query: QueryOf<typeof IdsQuery>; response: Out<typeof DeletedIds> }
  'GET /platform/projects/{ref}/content/count': { query?: QueryOf<typeof ContentCountQuery>; response: Out<typeof ContentCountResponse> }
  'GET /platform/projects/{ref}/content/item/{id}': { response: ContentItem }
  'GET /platform/projects/{ref}/content/folders': { query?: QueryOf<typeof ContentListQuery>; response: Out<typeof FolderListResponse> }
  'GET /platform/projects/{ref}/content/folders/{id}': { query?: QueryOf<typeof ContentListQuery>; response: Out<typeof FolderListResponse> }
  'POST /platform/projects/{ref}/content/folders': { body: In<typeof CreateFolderBody>; response: Folder }
  'PUT /platform/projects/{ref}/content/folders/{id}': { body: In<typeof UpdateFolderBody>; response: Folder }
  'DELETE /platform/projects/{ref}/content/folders': { query: QueryOf<typeof IdsQuery>; response: Out<typeof DeletedIds> }

  // ---- API keys, JWT secret, API docs ----
  'GET /platform/projects/{ref}/api-keys/last-used': { response: ApiKeysLastUsed }
  'POST /platform/projects/{ref}/config/secrets': { body: In<typeof JwtSecretUpdateBody>; response: JwtSecretUpdateStatus }
  'GET /platform/projects/{ref}/config/secrets/update-status': { response: JwtSecretUpdateStatus }
  'GET /v1/projects/{ref}/api-keys': { query?: QueryOf<typeof ApiKeysQuery>; response: ApiKeyResponse[] }
  'POST /v1/projects/{ref}/api-keys': { query?: QueryOf<typeof ApiKeysQuery>; body: In<typeof CreateApiKeyBody>; response: ApiKeyResponse }
  'GET /v1/projects/{ref}/api-keys/{id}': { query?: QueryOf<typeof ApiKeysQuery>; response: ApiKeyResponse }
  'DELETE /v1/projects/{ref}/api-keys/{id}': { query?: QueryOf<typeof DeleteApiKeyQuery>; response: ApiKeyResponse }
  'GET /v1/projects/{ref}/api-keys/legacy': { response: LegacyApiKeysResponse }
  'PUT /v1/projects/{ref}/api-keys/legacy': { query: QueryOf<typeof LegacyApiKeysQuery>; response: LegacyApiKeysResponse }
  'GET /v1/projects/{ref}/types/typescript': { query?: QueryOf<typeof TypescriptTypesQuery>; response: TypescriptResponse }
  'GET /platform/projects/{ref}/api/rest': { query?: QueryOf<typeof ApiRestQuery>; response: OpenApiDocument }

  // ---- Project settings: PostgREST, Auth ----
  'GET /platform/projects/{ref}/config/postgrest': { response: PostgrestConfigResponse }
  'PATCH /platform/projects/{ref}/config/postgrest': { body: In<typeof PostgrestConfigUpdateBody>; response: PostgrestConfigResponse }
  'GET /platform/auth/{ref}/config': { response: ProjectAuthSettings }
  'PATCH /platform/auth/{ref}/config': { body: In<typeof ProjectAuthSettingsUpdate>; response: ProjectAuthSettings }
  'GET /platform/projects/{ref}/auth/outbox': { response: AuthOutboxMessage[] }
  'GET /platform/auth/{ref}/users': { query?: { page?: number; per_page?: number; keywords?: string }; response: AuthUsersPage }
  'POST /platform/auth/{ref}/users': { body: CreateAuthUserBody; response: AuthUser }
  'DELETE /platform/auth/{ref}/users/{id}': { response: object }
  'POST /platform/auth/{ref}/invite': { body: { email: string }; response: AuthUser }
  'POST /platform/auth/{ref}/recover': { body: { email: string }; response: object }

  // ---- Logs, advisors, assistant, AI ----
  'GET /platform/projects/{ref}/analytics/endpoints/logs.all': { query?: QueryOf<typeof LogQueryParams>; response: LogQueryResponse }
  'GET /platform/projects/{ref}/run-lints': { response: Lint[] }
  'GET /platform/projects/{ref}/assistant': { response: AssistantProjectContext }
  'PATCH /platform/projects/{ref}/assistant': { body: In<typeof UpdateAssistantProjectBody>; response: AssistantProjectContext }
  'GET /platform/projects/{ref}/assistant/chats': { response: ChatSummary[] }
  'POST /platform/projects/{ref}/assistant/chats': { body: In<typeof CreateChatBody>; response: Chat }
  'GET /platform/projects/{ref}/assistant/chats/{id}': { response: Chat }
  'PATCH /platform/projects/{ref}/assistant/chats/{id}': { body: In<typeof UpdateChatBody>; response: Chat }
  'DELETE /platform/projects/{ref}/assistant/chats/{id}': { response: void }
  'GET /api/ai/sql/check-api-key': { response: AiKeyCheckResponse }
  'POST /api/ai/sql/title-v2': { body: AiTitleBody; response: AiTitleResponse }
  /** A text stream, read by data/ai/streamSqlCompletion.ts. */
  'POST /api/ai/sql/complete-v2': { body: AiCompletionBody; response: string }

  // ---- Storage ----
  'GET /platform/storage/{ref}/buckets': { response: Bucket[] }
  'POST /platform/storage/{ref}/buckets': { body: In<typeof CreateBucketBody>; response: Bucket }
  'PUT /platform/storage/{ref}/buckets/{id}': { body: In<typeof UpdateBucketBody>; response: Bucket }
  'DELETE /platform/storage/{ref}/buckets/{id}': { response: { message: string } }
  'POST /platform/storage/{ref}/archive': { response: Empty }
  'GET /platform/storage/{ref}/archive': { response: StorageArchive }
  'POST /platform/storage/{ref}/objects/list/{bucket}': { body: StorageListBody; response: StorageItem[] }
  'DELETE /platform/storage/{ref}/objects/{bucket}': { body: { prefixes: string[] }; response: { name: string }[] }
  'POST /platform/storage/{ref}/objects/move': { body: { bucketId: string; sourceKey: string; destinationKey: string }; response: { message: string } }
  'POST /platform/storage/{ref}/objects/sign/{bucket}/{...path}': { body: { expiresIn: number }; response: { signedURL: string } }
  /** The object's bytes (opened as a URL, or uploaded with progress by data/storage/objects.ts). */
  'GET /platform/storage/{ref}/objects/{bucket}/{...path}': { response: unknown }
  'POST /platform/storage/{ref}/objects/{bucket}/{...path}': { response: { Id: string; Key: string } }

  // ---- Edge functions ----
  'GET /v1/projects/{ref}/functions': { response: FunctionResponse[] }
  'GET /v1/projects/{ref}/functions/{function_slug}': { response: FunctionResponse }
  'DELETE /v1/projects/{ref}/functions/{function_slug}': { response: FunctionResponse }
  /** Multipart upload, sent by data/functions/useDeployFunction.ts. */
  'POST /v1/projects/{ref}/functions/deploy': { query: QueryOf<typeof DeployFunctionQuery>; response: FunctionResponse }
  'GET /platform/projects/{ref}/functions/{function_slug}/files': { response: FunctionFilesResponse }
  'GET /v1/projects/{ref}/secrets': { response: FunctionSecretResponse[] }
  'POST /v1/projects/{ref}/secrets': { body: In<typeof CreateFunctionSecretsBody>; response: Empty }
  'DELETE /v1/projects/{ref}/secrets': { body: In<typeof DeleteFunctionSecretsBody>; response: Empty }

  // ---- Branching and GitHub ----
  'GET /v1/projects/{ref}/branches': { response: Branch[] }
  'POST /v1/projects/{ref}/branches': { body: In<typeof CreateBranchBody>; response: Branch }
  'DELETE /v1/projects/{ref}/branches': { response: { message: string } }
  'DELETE /v1/branches/{branch_id_or_ref}': { response: { message: string } }
  'POST /v1/branches/{branch_id_or_ref}/reset': { body: In<typeof BranchActionBody>; response: Out<typeof BranchUpdateResponse> }
  'POST /v1/branches/{branch_id_or_ref}/merge': { body: In<typeof BranchActionBody>; response: Out<typeof BranchUpdateResponse> }
  'POST /v1/branches/{branch_id_or_ref}/push': { body: In<typeof BranchActionBody>; response: Out<typeof BranchUpdateResponse> }
  /** Plain text (the SQL), read by data/branches/useBranchDiff.ts. */
  'GET /v1/branches/{branch_id_or_ref}/diff': { response: string }
  'GET /platform/integrations/github/connections': { query: QueryOf<typeof GitHubConnectionsQuery>; response: { connections: GitHubConnection[] } }
  'POST /platform/integrations/github/connections': { body: In<typeof CreateGitHubConnectionBody>; response: GitHubConnection }
  'DELETE /platform/integrations/github/connections/{connectionId}': { response: void }
  'GET /platform/integrations/github/branches/{connectionId}/{branchName}': { response: Out<typeof GitHubBranch> }

  // ---- Support ----
  'GET /platform/support/requests': { response: SupportRequest[] }
  'POST /platform/support/requests': { body: In<typeof CreateSupportRequestBody>; response: SupportRequest }
}

export type ApiRouteKey = keyof ApiRoutes

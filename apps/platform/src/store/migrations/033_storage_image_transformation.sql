-- Image transformation (/render/image, storage-api's render routes) is a per-project switch, on by default
-- (/v1/projects/{ref}/config/storage features.imageTransformation). A row may now hold only the switch: a
-- NULL file_size_limit is the installation's STRATUM_STORAGE_MAX_FILE_BYTES, as no row is.
ALTER TABLE project_storage_config ADD COLUMN image_transformation boolean NOT NULL DEFAULT true;
ALTER TABLE project_storage_config ALTER COLUMN file_size_limit DROP NOT NULL;

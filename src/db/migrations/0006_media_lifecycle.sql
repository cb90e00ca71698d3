ALTER TABLE "sandbox_media" ALTER COLUMN "status" SET DEFAULT 'UPLOADED';--> statement-breakpoint
ALTER TABLE "sandbox_media" ADD COLUMN "content" "bytea";--> statement-breakpoint
ALTER TABLE "sandbox_media" ADD COLUMN "mime_type" text;--> statement-breakpoint
ALTER TABLE "sandbox_media" ADD COLUMN "error_code" text;--> statement-breakpoint
ALTER TABLE "sandbox_media" ADD COLUMN "error_message" text;--> statement-breakpoint
-- Images taken as READY before the sandbox fetched them have no file: they are fetched now (at the next sandbox start).
UPDATE "sandbox_media" SET "status" = 'UPLOADED' WHERE "status" = 'READY' AND "content" IS NULL;

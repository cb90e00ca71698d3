CREATE TABLE "sandbox_oauth_grants" (
	"hash" text PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"kind" text NOT NULL,
	"binding_hash" text,
	"scopes" jsonb NOT NULL,
	"redirect_uri" text NOT NULL,
	"state" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_oauth_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"kind" text NOT NULL,
	"access_token_hash" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"expires_at" timestamp with time zone,
	"refresh_token_hash" text,
	"refresh_expires_at" timestamp with time zone,
	"previous_refresh_hash" text,
	"previous_refresh_expires_at" timestamp with time zone,
	"first_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "client_secret" text;--> statement-breakpoint
-- Stores made before this migration get an app of their own (hand-written: drizzle-kit would add the columns NOT NULL at once).
UPDATE "sandbox_stores" SET "client_id" = replace(gen_random_uuid()::text, '-', ''), "client_secret" = 'shpss_' || replace(gen_random_uuid()::text, '-', '') WHERE "client_id" IS NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ALTER COLUMN "client_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ALTER COLUMN "client_secret" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "app_name" text DEFAULT 'Pimbridge' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "app_scopes" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "revoked_scopes" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "redirect_urls" jsonb;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "token_lifetime_seconds" integer;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "refresh_token_lifetime_seconds" integer;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "allow_http_webhooks" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_stores" ADD COLUMN "compliance_url" text;--> statement-breakpoint
ALTER TABLE "sandbox_oauth_grants" ADD CONSTRAINT "sandbox_oauth_grants_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_oauth_tokens" ADD CONSTRAINT "sandbox_oauth_tokens_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_oauth_grants_store_idx" ON "sandbox_oauth_grants" USING btree ("store_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_oauth_tokens_access_uq" ON "sandbox_oauth_tokens" USING btree ("access_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_oauth_tokens_refresh_uq" ON "sandbox_oauth_tokens" USING btree ("refresh_token_hash");--> statement-breakpoint
CREATE INDEX "sandbox_oauth_tokens_previous_refresh_idx" ON "sandbox_oauth_tokens" USING btree ("previous_refresh_hash");--> statement-breakpoint
CREATE INDEX "sandbox_oauth_tokens_store_idx" ON "sandbox_oauth_tokens" USING btree ("store_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_stores_client_id_uq" ON "sandbox_stores" USING btree ("client_id");
CREATE TABLE "shop_installs" (
	"id" serial PRIMARY KEY NOT NULL,
	"state_hash" text NOT NULL,
	"browser_hash" text NOT NULL,
	"organization_id" integer NOT NULL,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "shop_installs_state_hash_unique" UNIQUE("state_hash")
);
--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "organization_id" integer;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "auth_method" text DEFAULT 'access_token' NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "client_secret_encrypted" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "access_token_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "refresh_token_encrypted" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "refresh_token_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "renewal_owner" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "renewal_until" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "token_renewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "token_renewals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "auth_status" text DEFAULT 'ok' NOT NULL;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "auth_error" text;--> statement-breakpoint
ALTER TABLE "shops" ADD COLUMN "granted_scopes" jsonb;--> statement-breakpoint
ALTER TABLE "shop_installs" ADD CONSTRAINT "shop_installs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "shops" ADD CONSTRAINT "shops_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "shops_organization_idx" ON "shops" USING btree ("organization_id");--> statement-breakpoint
-- A shop already connected belongs to the organization whose API key its integration uses (when that PIM is this server).
UPDATE "shops" s SET "organization_id" = k."organization_id"
FROM "integrations" i JOIN "api_keys" k ON k."key_hash" = i."pim_key_hash"
WHERE i."shop_id" = s."id" AND s."organization_id" IS NULL;

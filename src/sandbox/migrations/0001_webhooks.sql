CREATE TABLE "sandbox_webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"webhook_id" text NOT NULL,
	"event_id" text NOT NULL,
	"topic" text NOT NULL,
	"uri" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"triggered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_webhook_subscriptions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"store_id" integer NOT NULL,
	"topic" text NOT NULL,
	"uri" text NOT NULL,
	"format" text DEFAULT 'JSON' NOT NULL,
	"name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sandbox_webhook_deliveries" ADD CONSTRAINT "sandbox_webhook_deliveries_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sandbox_webhook_subscriptions" ADD CONSTRAINT "sandbox_webhook_subscriptions_store_id_sandbox_stores_id_fk" FOREIGN KEY ("store_id") REFERENCES "public"."sandbox_stores"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_webhook_deliveries_webhook_id_uq" ON "sandbox_webhook_deliveries" USING btree ("webhook_id");--> statement-breakpoint
CREATE INDEX "sandbox_webhook_deliveries_store_idx" ON "sandbox_webhook_deliveries" USING btree ("store_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_webhook_subscriptions_topic_uri_uq" ON "sandbox_webhook_subscriptions" USING btree ("store_id","topic","uri");
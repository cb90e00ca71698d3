CREATE TABLE "shop_budgets" (
	"domain" text PRIMARY KEY NOT NULL,
	"maximum" double precision NOT NULL,
	"restore_rate" double precision NOT NULL,
	"available" double precision NOT NULL,
	"at_ms" double precision NOT NULL
);

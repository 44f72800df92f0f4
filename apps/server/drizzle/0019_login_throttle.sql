CREATE TABLE "login_throttle" (
	"user_key" text NOT NULL,
	"ip" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	"blocked_until" timestamp with time zone,
	CONSTRAINT "login_throttle_user_key_ip_pk" PRIMARY KEY("user_key","ip")
);
--> statement-breakpoint
DROP INDEX "login_attempts_name_at";--> statement-breakpoint
CREATE INDEX "login_throttle_last_at" ON "login_throttle" USING btree ("last_at");--> statement-breakpoint
CREATE INDEX "login_attempts_ip_at" ON "login_attempts" USING btree ("ip","at");
ALTER TABLE "mc_topic_centers" ADD COLUMN "status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "mc_topic_centers" ADD COLUMN "responded_at" timestamp with time zone;--> statement-breakpoint
-- The leading center takes part in its own topic; centers added before invitations existed were enrolled without their consent and stay pending until their administrator accepts.
UPDATE "mc_topic_centers" SET "status" = 'accepted' WHERE "role" = 'lead';--> statement-breakpoint
ALTER TABLE "mc_topics" ADD COLUMN "min_cell_count" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "mc_topic_centers" ADD CONSTRAINT "mc_topic_centers_status" CHECK ("mc_topic_centers"."status" in ('pending', 'accepted', 'declined', 'withdrawn', 'left'));--> statement-breakpoint
ALTER TABLE "mc_topics" ADD CONSTRAINT "mc_topics_min_cell_count" CHECK ("mc_topics"."min_cell_count" between 1 and 100);
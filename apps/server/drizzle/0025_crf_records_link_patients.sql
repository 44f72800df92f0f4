-- Issue 16: a CRF record is for a patient of the app. Records made before that carry only a typed
-- subject code; where the code is the medical record number of a patient of the same app, the
-- record is linked to that patient (each link is an '@link' event of the record's history). Other
-- records stay as they are and are shown as not linked, to be linked by hand.
WITH "linked" AS (
  UPDATE "crf_records" AS r SET "patient_id" = p."id"
  FROM "patients" AS p
  WHERE r."patient_id" IS NULL AND r."subject_code" <> '' AND p."app_id" = r."app_id" AND p."mrn" = r."subject_code"
  RETURNING r."id", r."app_id"
)
INSERT INTO "crf_record_changes" ("app_id", "record_id", "item_key", "reason", "user_name")
SELECT "app_id", "id", '@link', '受试者编号与患者病案号相同，升级时自动关联', 'system' FROM "linked";

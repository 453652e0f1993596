import { Migration } from '@mikro-orm/migrations';

export class Migration20261123112537_initial extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "admin_action" ("sid" text not null, "admin_email" text not null, "action" text not null, "target_type" text not null, "target_id" text not null, "details" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "admin_action_pkey" primary key ("sid"));`);
    this.addSql(`create index "admin_action_admin_email_index" on "admin_action" ("admin_email");`);
    this.addSql(`create index "admin_action_action_index" on "admin_action" ("action");`);
    this.addSql(`create index "admin_action_target_id_index" on "admin_action" ("target_id");`);

    this.addSql(`create table "api_key" ("sid" text not null, "key_hash" text not null, "name" text not null, "user_id" text null, "is_active" boolean not null default true, "last_used_at" timestamptz(3) null, "expires_at" timestamptz(3) null, "discount_profile" text null, "allow_company_creation" boolean not null default false, "mcp_scope" text null, "max_transaction_amount" double precision null default 100, "daily_spending_limit" double precision null default 500, "monthly_spending_limit" double precision null default 2000, "max_calls_per_hour" bigint null default 60, "max_calls_per_day" bigint null default 500, "allowed_tool_patterns" text null, "blocked_tool_patterns" text null, "approval_threshold" double precision null, "approval_required_tools" text null, "partner_id" text null, "is_system_minted" boolean not null default false, "prefix" text not null, "revoked_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "api_key_pkey" primary key ("sid"));`);
    this.addSql(`create index "api_key_name_index" on "api_key" ("name");`);
    this.addSql(`create index "api_key_user_id_index" on "api_key" ("user_id");`);
    this.addSql(`create index "api_key_partner_id_index" on "api_key" ("partner_id");`);
    this.addSql(`alter table "api_key" add constraint "api_key_key_hash_unique" unique ("key_hash");`);

    this.addSql(`create table "business_document" ("sid" text not null, "company_id" text not null, "document_type" text not null, "name" text not null, "description" text null, "file_url" text null, "content" text null, "is_official" boolean not null default false, "issued_date" timestamptz(3) null, "expiry_date" timestamptz(3) null, "uploaded_by" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "business_document_pkey" primary key ("sid"));`);
    this.addSql(`create index "business_document_company_id_index" on "business_document" ("company_id");`);
    this.addSql(`create index "business_document_name_index" on "business_document" ("name");`);

    this.addSql(`create table "company_message" ("sid" text not null, "company_id" text not null, "title" text not null, "body" text not null, "message_type" text not null default 'notification', "category" text null, "action_url" text null, "action_label" text null, "is_read" boolean not null default false, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "company_message_pkey" primary key ("sid"));`);
    this.addSql(`create index "company_message_company_id_index" on "company_message" ("company_id");`);
    this.addSql(`create index "company_message_title_index" on "company_message" ("title");`);
    this.addSql(`create index "company_message_body_index" on "company_message" ("body");`);

    this.addSql(`create table "company_role" ("sid" text not null, "company_id" text not null, "subject_id" text not null, "role" text not null, "valid_from" timestamptz(3) not null, "valid_to" timestamptz(3) null, "classification_scope" text[] not null, "created_by" text not null, "holder_name" text null, "holder_external_id" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "company_role_pkey" primary key ("sid"));`);
    this.addSql(`create index "company_role_company_id_index" on "company_role" ("company_id");`);
    this.addSql(`create index "company_role_subject_id_index" on "company_role" ("subject_id");`);
    this.addSql(`create index "company_role_role_index" on "company_role" ("role");`);
    this.addSql(`create index "company_role_valid_from_index" on "company_role" ("valid_from");`);

    this.addSql(`create table "contract" ("sid" text not null, "fzc_id" text not null, "name" text not null, "contract_type" text not null, "counterparty" text not null, "status" text not null default 'draft', "start_date" timestamptz(3) not null, "end_date" timestamptz(3) null, "total_value" double precision null, "currency" text null, "description" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "contract_pkey" primary key ("sid"));`);
    this.addSql(`create index "contract_fzc_id_index" on "contract" ("fzc_id");`);
    this.addSql(`create index "contract_name_index" on "contract" ("name");`);
    this.addSql(`create index "contract_contract_type_index" on "contract" ("contract_type");`);
    this.addSql(`create index "contract_counterparty_index" on "contract" ("counterparty");`);

    this.addSql(`create table "contract_signature" ("sid" text not null, "user_id" text not null, "contract_id" text not null, "contract_version" text not null, "receipt_id" text not null, "signed_at" timestamptz(3) not null, "entity_type" text not null, "entity_name" text not null, "entity_id" text not null default '', "ip_address" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "contract_signature_pkey" primary key ("sid"));`);
    this.addSql(`create index "contract_signature_user_id_index" on "contract_signature" ("user_id");`);
    this.addSql(`create index "contract_signature_contract_id_index" on "contract_signature" ("contract_id");`);
    this.addSql(`alter table "contract_signature" add constraint "contract_signature_receipt_id_unique" unique ("receipt_id");`);

    this.addSql(`create table "contract_template" ("sid" text not null, "name" text not null, "description" text not null, "category" text not null, "content" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "contract_template_pkey" primary key ("sid"));`);
    this.addSql(`create index "contract_template_name_index" on "contract_template" ("name");`);
    this.addSql(`create index "contract_template_description_index" on "contract_template" ("description");`);
    this.addSql(`create index "contract_template_category_index" on "contract_template" ("category");`);

    this.addSql(`create table "coop_event" ("sid" text not null, "company_id" text not null, "title" text not null, "description" text null, "event_type" text not null, "start_at" timestamptz(3) not null, "end_at" timestamptz(3) null, "created_by" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "coop_event_pkey" primary key ("sid"));`);
    this.addSql(`create index "coop_event_company_id_index" on "coop_event" ("company_id");`);
    this.addSql(`create index "coop_event_created_by_index" on "coop_event" ("created_by");`);

    this.addSql(`create table "counter" ("sid" text not null, "name" text not null, "value" bigint not null default 0, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "counter_pkey" primary key ("sid"));`);
    this.addSql(`alter table "counter" add constraint "counter_name_unique" unique ("name");`);

    this.addSql(`create table "credit_balance" ("sid" text not null, "user_id" text not null, "balance" double precision not null default 0, "lifetime_earned" double precision not null default 0, "lifetime_spent" double precision not null default 0, "last_top_up_at" timestamptz(3) null, "auto_topup_enabled" boolean not null default false, "auto_topup_amount" double precision not null default 0, "auto_topup_threshold" double precision not null default 0, "cardpsp_customer_id" text null, "cardpsp_payment_method_id" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "credit_balance_pkey" primary key ("sid"));`);
    this.addSql(`alter table "credit_balance" add constraint "credit_balance_user_id_unique" unique ("user_id");`);

    this.addSql(`create table "credit_transaction" ("sid" text not null, "user_id" text not null, "tx_type" text not null, "amount" double precision not null, "balance_after" double precision not null, "currency" text not null default 'USD', "description" text not null, "reference_type" text null, "reference_id" text null, "external_call_id" text null, "status" text not null default 'completed', "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "credit_transaction_pkey" primary key ("sid"));`);
    this.addSql(`create index "credit_transaction_user_id_index" on "credit_transaction" ("user_id");`);
    this.addSql(`create index "credit_transaction_description_index" on "credit_transaction" ("description");`);
    this.addSql(`create index "credit_transaction_reference_id_index" on "credit_transaction" ("reference_id");`);
    this.addSql(`alter table "credit_transaction" add constraint "credit_transaction_external_call_id_unique" unique ("external_call_id");`);

    this.addSql(`create table "digital_resident" ("sid" text not null, "resident_id" text not null, "user_id" text null, "partner_id" text null, "email" text not null, "first_name" text not null, "last_name" text not null, "phone" text not null default '', "kyc_provider_id" text not null default '', "status" text not null default 'pending', "public_key" text null, "encrypted_private_key" text null, "keypair_version" bigint not null default 0, "subscription_plan" text null, "auto_renewal" boolean not null default false, "subscription_start_date" timestamptz(3) null, "subscription_end_date" timestamptz(3) null, "cardpsp_connected_account_id" text null, "mobilepay_merchant_id" text null, "payment_receiving_enabled" boolean not null default false, "is_tanzanian_citizen" boolean null, "physical_residence_zanzibar" boolean null, "risk_tier" text null, "kyc_refreshed_at" timestamptz(3) null, "kyc_next_refresh_at" timestamptz(3) null, "resident_type" text null, "source" text null, "external_id" text null, "external_id_counter" bigint null, "anonymity_enabled" boolean not null default false, "anonymity_changed_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "digital_resident_pkey" primary key ("sid"));`);
    this.addSql(`create index "digital_resident_user_id_index" on "digital_resident" ("user_id");`);
    this.addSql(`create index "digital_resident_partner_id_index" on "digital_resident" ("partner_id");`);
    this.addSql(`create index "digital_resident_email_index" on "digital_resident" ("email");`);
    this.addSql(`create index "digital_resident_first_name_index" on "digital_resident" ("first_name");`);
    this.addSql(`create index "digital_resident_last_name_index" on "digital_resident" ("last_name");`);
    this.addSql(`alter table "digital_resident" add constraint "digital_resident_resident_id_unique" unique ("resident_id");`);
    this.addSql(`alter table "digital_resident" add constraint "digital_resident_external_id_unique" unique ("external_id");`);
    this.addSql(`alter table "digital_resident" add constraint "digital_resident_external_id_counter_unique" unique ("external_id_counter");`);

    this.addSql(`create table "dividend_distribution" ("sid" text not null, "company_id" text not null, "total_amount" double precision not null, "currency" text not null, "source_account_id" text not null, "distribution_date" timestamptz(3) not null, "status" text not null default 'proposed', "requires_vote" boolean not null default false, "proposal_id" text null, "initiated_by" text not null, "approved_at" timestamptz(3) null, "completed_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "dividend_distribution_pkey" primary key ("sid"));`);
    this.addSql(`create index "dividend_distribution_company_id_index" on "dividend_distribution" ("company_id");`);

    this.addSql(`create table "dividend_payment" ("sid" text not null, "distribution_id" text not null, "company_id" text not null, "recipient_id" text not null, "ownership_percentage" double precision not null, "amount" double precision not null, "currency" text not null, "destination_account_id" text null, "transaction_id" text null, "paid_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "dividend_payment_pkey" primary key ("sid"));`);
    this.addSql(`create index "dividend_payment_distribution_id_index" on "dividend_payment" ("distribution_id");`);
    this.addSql(`create index "dividend_payment_company_id_index" on "dividend_payment" ("company_id");`);
    this.addSql(`create index "dividend_payment_recipient_id_index" on "dividend_payment" ("recipient_id");`);

    this.addSql(`create table "document_audience" ("sid" text not null, "document_ref" text not null, "document_type" text not null, "company_id" text not null, "classification" text[] not null, "audience_computation" text not null, "document_relevant_from" timestamptz(3) not null, "document_relevant_to" timestamptz(3) null, "as_of_epoch" timestamptz(3) not null, "supersedes" text null, "created_by" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "document_audience_pkey" primary key ("sid"));`);
    this.addSql(`create index "document_audience_document_ref_index" on "document_audience" ("document_ref");`);
    this.addSql(`create index "document_audience_document_type_index" on "document_audience" ("document_type");`);
    this.addSql(`create index "document_audience_company_id_index" on "document_audience" ("company_id");`);

    this.addSql(`create table "email_outbox" ("sid" text not null, "to_email" text not null, "subject" text not null, "body_text" text not null, "template" text not null, "status" text not null default 'queued', "provider_message_id" text null, "error" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "email_outbox_pkey" primary key ("sid"));`);
    this.addSql(`create index "email_outbox_to_email_index" on "email_outbox" ("to_email");`);

    this.addSql(`create table "email_verification_token" ("sid" text not null, "user_id" text not null, "token_hash" text not null, "expires_at" timestamptz(3) not null, "used" boolean not null default false, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "email_verification_token_pkey" primary key ("sid"));`);
    this.addSql(`create index "email_verification_token_user_id_index" on "email_verification_token" ("user_id");`);
    this.addSql(`alter table "email_verification_token" add constraint "email_verification_token_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "entity_draft" ("sid" text not null, "entity_type" text not null, "entity_name" text not null, "company_type" text not null, "creator_user_id" text not null, "creator_dr_id" text not null, "template_data" text not null, "rendered_documents" text not null default '[]', "shareholders" jsonb not null, "status" text not null default 'draft', "document_version" bigint not null default 1, "signature_deadline" timestamptz(3) not null, "total_required_signatures" bigint not null default 0, "completed_signatures" bigint not null default 0, "form_schema_id" text null, "finalized_at" timestamptz(3) null, "completed_at" timestamptz(3) null, "paid_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "entity_draft_pkey" primary key ("sid"));`);
    this.addSql(`create index "entity_draft_entity_type_index" on "entity_draft" ("entity_type");`);
    this.addSql(`create index "entity_draft_entity_name_index" on "entity_draft" ("entity_name");`);
    this.addSql(`create index "entity_draft_creator_user_id_index" on "entity_draft" ("creator_user_id");`);

    this.addSql(`create table "entity_invitation" ("sid" text not null, "draft_id" text not null, "entity_name" text not null, "inviter_user_id" text not null, "inviter_dr_id" text null, "inviter_name" text null, "invitee_user_id" text not null, "invitee_email" text not null, "invitee_dr_id" text not null, "cap_table_email" text not null, "role" text not null, "share_units" double precision not null default 0, "status" text not null default 'pending', "document_version" bigint not null, "signature_id" text null, "invited_at" timestamptz(3) not null, "responded_at" timestamptz(3) null, "expires_at" timestamptz(3) not null, "decline_reason" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "entity_invitation_pkey" primary key ("sid"));`);
    this.addSql(`create index "entity_invitation_draft_id_index" on "entity_invitation" ("draft_id");`);
    this.addSql(`create index "entity_invitation_inviter_user_id_index" on "entity_invitation" ("inviter_user_id");`);
    this.addSql(`create index "entity_invitation_invitee_user_id_index" on "entity_invitation" ("invitee_user_id");`);
    this.addSql(`create index "entity_invitation_invitee_email_index" on "entity_invitation" ("invitee_email");`);

    this.addSql(`create table "exchange_transaction" ("sid" text not null, "owner_type" text not null, "owner_id" text not null, "from_account_id" text not null, "to_account_id" text not null, "from_amount" double precision not null, "from_currency" text not null, "to_amount" double precision not null, "to_currency" text not null, "exchange_rate" double precision not null, "fee_percentage" double precision not null, "fee_amount" double precision not null, "status" text not null default 'pending', "rate_expires_at" timestamptz(3) not null, "initiated_by" text not null, "completed_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "exchange_transaction_pkey" primary key ("sid"));`);
    this.addSql(`create index "exchange_transaction_owner_id_index" on "exchange_transaction" ("owner_id");`);
    this.addSql(`create index "exchange_transaction_from_account_id_index" on "exchange_transaction" ("from_account_id");`);
    this.addSql(`create index "exchange_transaction_to_account_id_index" on "exchange_transaction" ("to_account_id");`);
    this.addSql(`create index "exchange_transaction_initiated_by_index" on "exchange_transaction" ("initiated_by");`);

    this.addSql(`create table "external_company_registration" ("sid" text not null, "legal_name" text not null, "jurisdiction" text not null, "registration_number" text not null, "kyb_status" text not null default 'pending', "documents" text[] not null, "approved_by" text null, "linked_dr_id" text null, "kyb_scan_ref" text null, "kyb_provider" text null, "kyb_provider_status" text null, "kyb_checked_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "external_company_registration_pkey" primary key ("sid"));`);
    this.addSql(`create index "external_company_registration_legal_name_index" on "external_company_registration" ("legal_name");`);
    this.addSql(`create index "external_company_registration_registration_number_index" on "external_company_registration" ("registration_number");`);
    this.addSql(`create index "external_company_registration_linked_dr_id_index" on "external_company_registration" ("linked_dr_id");`);
    this.addSql(`alter table "external_company_registration" add constraint "external_company_registration_kyb_scan_ref_unique" unique ("kyb_scan_ref");`);

    this.addSql(`create table "external_id_state" ("sid" text not null, "next_counter" bigint not null default 1, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "external_id_state_pkey" primary key ("sid"));`);

    this.addSql(`create table "financial_report" ("sid" text not null, "company_id" text not null, "report_type" text not null, "title" text not null, "period_start" timestamptz(3) null, "period_end" timestamptz(3) null, "as_of_date" timestamptz(3) null, "content" text not null, "generated_by" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "financial_report_pkey" primary key ("sid"));`);
    this.addSql(`create index "financial_report_company_id_index" on "financial_report" ("company_id");`);
    this.addSql(`create index "financial_report_title_index" on "financial_report" ("title");`);

    this.addSql(`create table "frontend_error" ("sid" text not null, "user_id" text not null default '', "error_code" text not null, "page" text not null, "message" text not null, "user_agent" text not null, "ip_address" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "frontend_error_pkey" primary key ("sid"));`);
    this.addSql(`create index "frontend_error_user_id_index" on "frontend_error" ("user_id");`);
    this.addSql(`create index "frontend_error_error_code_index" on "frontend_error" ("error_code");`);
    this.addSql(`create index "frontend_error_page_index" on "frontend_error" ("page");`);

    this.addSql(`create table "fund_transfer" ("sid" text not null, "from_account_id" text not null, "to_account_id" text null, "to_external_address" text null, "to_external_name" text null, "amount" double precision not null, "currency" text not null, "reference" text null, "status" text not null default 'pending', "requires_approval" boolean not null default false, "approval_threshold" double precision not null default 0, "approved_by" text null, "initiated_by" text not null, "transaction_id" text null, "fee_amount" double precision null, "completed_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "fund_transfer_pkey" primary key ("sid"));`);
    this.addSql(`create index "fund_transfer_from_account_id_index" on "fund_transfer" ("from_account_id");`);
    this.addSql(`create index "fund_transfer_to_account_id_index" on "fund_transfer" ("to_account_id");`);
    this.addSql(`create index "fund_transfer_initiated_by_index" on "fund_transfer" ("initiated_by");`);

    this.addSql(`create table "governance_action" ("sid" text not null, "company_id" text not null, "subject_resident_id" text not null, "kind" text not null, "parent_action_sid" text null, "content" text not null, "due_by" timestamptz(3) not null, "decided_at" timestamptz(3) null, "decided_by_role" text null, "decided_by_subject_id" text null, "outcome" text null, "created_by" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "governance_action_pkey" primary key ("sid"));`);
    this.addSql(`create index "governance_action_company_id_index" on "governance_action" ("company_id");`);
    this.addSql(`create index "governance_action_subject_resident_id_index" on "governance_action" ("subject_resident_id");`);
    this.addSql(`create index "governance_action_kind_index" on "governance_action" ("kind");`);
    this.addSql(`create index "governance_action_parent_action_sid_index" on "governance_action" ("parent_action_sid");`);

    this.addSql(`create table "invoice_payment_default" ("sid" text not null, "owner_user_id" text not null, "sender_entity_type" text null, "sender_entity_id" text null, "currency" text null, "label" text null, "payment_instructions" jsonb not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "invoice_payment_default_pkey" primary key ("sid"));`);
    this.addSql(`create index "invoice_payment_default_owner_user_id_index" on "invoice_payment_default" ("owner_user_id");`);

    this.addSql(`create table "kyc_artifact_attestation" ("sid" text not null, "request_id" text not null, "partner_id" text not null, "partner_signature" text not null, "payload_hash" text not null, "encryption_scheme" text not null default 'aes-256-gcm-v1', "key_id" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "kyc_artifact_attestation_pkey" primary key ("sid"));`);
    this.addSql(`create index "kyc_artifact_attestation_request_id_index" on "kyc_artifact_attestation" ("request_id");`);
    this.addSql(`create index "kyc_artifact_attestation_partner_id_index" on "kyc_artifact_attestation" ("partner_id");`);
    this.addSql(`create index "kyc_artifact_attestation_payload_hash_index" on "kyc_artifact_attestation" ("payload_hash");`);
    this.addSql(`create index "kyc_artifact_attestation_key_id_index" on "kyc_artifact_attestation" ("key_id");`);

    this.addSql(`create table "kyc_artifact_payload" ("sid" text not null, "attestation_sid" text not null, "encrypted_payload" text not null, "key_id" text not null, "erased_at" timestamptz(3) null, "erasure_reason" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "kyc_artifact_payload_pkey" primary key ("sid"));`);
    this.addSql(`create index "kyc_artifact_payload_key_id_index" on "kyc_artifact_payload" ("key_id");`);
    this.addSql(`alter table "kyc_artifact_payload" add constraint "kyc_artifact_payload_attestation_sid_unique" unique ("attestation_sid");`);

    this.addSql(`create table "kyc_personal_data" ("sid" text not null, "resident_id" text not null, "user_id" text not null, "kyc_provider_id" text not null, "dob" text null, "nationality" text null, "document_number" text null, "document_type" text null, "document_expiry" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "kyc_personal_data_pkey" primary key ("sid"));`);
    this.addSql(`create index "kyc_personal_data_resident_id_index" on "kyc_personal_data" ("resident_id");`);
    this.addSql(`create index "kyc_personal_data_user_id_index" on "kyc_personal_data" ("user_id");`);

    this.addSql(`create table "kyc_session" ("sid" text not null, "user_id" text not null, "resident_id" text not null, "public_key" text not null, "kyc_url" text not null, "status" text not null default 'pending', "kycprovider_scan_ref" text null, "identity_verified" boolean not null default false, "document_verified" boolean not null default false, "liveness_verified" boolean not null default false, "verification_level" text null, "callback_url" text null, "expires_at" timestamptz(3) not null, "verified_at" timestamptz(3) null, "provider_verdict" text null, "reviewed_by" text null, "review_reason" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "kyc_session_pkey" primary key ("sid"));`);
    this.addSql(`create index "kyc_session_user_id_index" on "kyc_session" ("user_id");`);
    this.addSql(`create index "kyc_session_resident_id_index" on "kyc_session" ("resident_id");`);
    this.addSql(`alter table "kyc_session" add constraint "kyc_session_kycprovider_scan_ref_unique" unique ("kycprovider_scan_ref");`);

    this.addSql(`create table "mcp_approval" ("sid" text not null, "user_id" text not null, "api_key_id" text not null, "tool_name" text not null, "rpc_method" text null, "arguments" text not null, "amount" double precision not null default 0, "reason" text not null, "status" text not null default 'pending', "requested_at" timestamptz(3) not null, "decided_at" timestamptz(3) null, "expires_at" timestamptz(3) not null, "result_json" text null, "decision_reason" text null, "execution_error" text null, "decided_by" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "mcp_approval_pkey" primary key ("sid"));`);
    this.addSql(`create index "mcp_approval_user_id_index" on "mcp_approval" ("user_id");`);
    this.addSql(`create index "mcp_approval_api_key_id_index" on "mcp_approval" ("api_key_id");`);
    this.addSql(`create index "mcp_approval_tool_name_index" on "mcp_approval" ("tool_name");`);
    this.addSql(`create index "mcp_approval_status_index" on "mcp_approval" ("status");`);
    this.addSql(`create index "mcp_approval_requested_at_index" on "mcp_approval" ("requested_at");`);

    this.addSql(`create table "mcp_call_log" ("sid" text not null, "api_key_id" text not null, "user_id" text not null, "tool_name" text not null, "arguments_summary" text not null, "amount" double precision not null default 0, "result_status" text not null, "error_message" text not null default '', "created_at" timestamptz(3) not null, "amount_eur" double precision null, "approval_id" text null, "updated_at" timestamptz(3) not null, constraint "mcp_call_log_pkey" primary key ("sid"));`);
    this.addSql(`create index "mcp_call_log_api_key_id_index" on "mcp_call_log" ("api_key_id");`);
    this.addSql(`create index "mcp_call_log_user_id_index" on "mcp_call_log" ("user_id");`);
    this.addSql(`create index "mcp_call_log_tool_name_index" on "mcp_call_log" ("tool_name");`);
    this.addSql(`create index "mcp_call_log_result_status_index" on "mcp_call_log" ("result_status");`);
    this.addSql(`create index "mcp_call_log_created_at_index" on "mcp_call_log" ("created_at");`);

    this.addSql(`create table "mcp_usage_counter" ("sid" text not null, "api_key_id" text not null, "window" text not null, "calls" bigint not null default 0, "amount_eur" double precision not null default 0, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "mcp_usage_counter_pkey" primary key ("sid"));`);
    this.addSql(`create index "mcp_usage_counter_api_key_id_index" on "mcp_usage_counter" ("api_key_id");`);
    this.addSql(`alter table "mcp_usage_counter" add constraint "mcp_usage_counter_api_key_id_window_unique" unique ("api_key_id", "window");`);

    this.addSql(`create table "mfa_challenge" ("sid" text not null, "user_id" text not null, "challenge_hash" text not null, "expires_at" timestamptz(3) not null, "used" boolean not null default false, "attempts" bigint not null default 0, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "mfa_challenge_pkey" primary key ("sid"));`);
    this.addSql(`create index "mfa_challenge_user_id_index" on "mfa_challenge" ("user_id");`);
    this.addSql(`alter table "mfa_challenge" add constraint "mfa_challenge_challenge_hash_unique" unique ("challenge_hash");`);

    this.addSql(`create table "mfa_recovery_session" ("sid" text not null, "user_id" text not null, "resident_id" text not null, "kycprovider_scan_ref" text not null, "status" text not null default 'pending', "expires_at" timestamptz(3) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "mfa_recovery_session_pkey" primary key ("sid"));`);
    this.addSql(`create index "mfa_recovery_session_user_id_index" on "mfa_recovery_session" ("user_id");`);
    this.addSql(`alter table "mfa_recovery_session" add constraint "mfa_recovery_session_kycprovider_scan_ref_unique" unique ("kycprovider_scan_ref");`);

    this.addSql(`create table "partner_configuration" ("sid" text not null, "name" text not null, "client_id" text not null, "client_secret_hash" text not null, "access_password_hash" text not null, "wallet_user_id" text not null, "is_active" boolean not null default true, "allow_company_creation" boolean not null default false, "discount_profile" text null, "contact_email" text null, "signing_public_key" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "partner_configuration_pkey" primary key ("sid"));`);
    this.addSql(`create index "partner_configuration_name_index" on "partner_configuration" ("name");`);
    this.addSql(`alter table "partner_configuration" add constraint "partner_configuration_client_id_unique" unique ("client_id");`);

    this.addSql(`create table "password_reset_token" ("sid" text not null, "token_hash" text not null, "email" text not null, "expires_at" bigint not null, "used" boolean not null default false, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "password_reset_token_pkey" primary key ("sid"));`);
    this.addSql(`create index "password_reset_token_email_index" on "password_reset_token" ("email");`);
    this.addSql(`alter table "password_reset_token" add constraint "password_reset_token_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "payment" ("sid" text not null, "user_id" text not null, "entity_id" text not null, "entity_type" text not null, "payment_type" text not null, "amount" double precision not null, "currency" text not null, "crypto_amount" text null, "exchange_rate" text null, "wallet_address" text null, "sender_address" text null, "transaction_hash" text null, "confirmation_count" bigint null, "external_id" text not null default '', "mobilepay_order_id" text null, "payment_purpose" text not null, "invoice_id" text null, "subscription_plan" text null, "auto_renewal" boolean not null default false, "status" text not null default 'pending', "expires_at" timestamptz(3) not null, "confirmed_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "payment_pkey" primary key ("sid"));`);
    this.addSql(`create index "payment_user_id_index" on "payment" ("user_id");`);
    this.addSql(`create index "payment_entity_id_index" on "payment" ("entity_id");`);
    this.addSql(`alter table "payment" add constraint "payment_mobilepay_order_id_unique" unique ("mobilepay_order_id");`);

    this.addSql(`create table "proposal" ("sid" text not null, "company_id" text not null, "title" text not null, "description" text not null, "category" text not null, "kind" text not null, "status" text not null default 'active', "proposer_id" text not null, "voting_starts_at" timestamptz(3) not null, "voting_ends_at" timestamptz(3) not null, "quorum_percentage" bigint not null, "passing_threshold" bigint not null, "total_issued_power_snapshot" double precision not null, "allow_abstention" boolean not null default false, "votes_for" double precision not null default 0, "votes_against" double precision not null default 0, "votes_abstain" double precision not null default 0, "total_voted" double precision not null default 0, "resolution_id" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "proposal_pkey" primary key ("sid"));`);
    this.addSql(`create index "proposal_company_id_index" on "proposal" ("company_id");`);
    this.addSql(`create index "proposal_title_index" on "proposal" ("title");`);
    this.addSql(`create index "proposal_kind_index" on "proposal" ("kind");`);
    this.addSql(`create index "proposal_proposer_id_index" on "proposal" ("proposer_id");`);

    this.addSql(`create table "proxy" ("sid" text not null, "principal_dr_id" text not null, "target_dr_id" text not null, "role" text not null, "status" text not null default 'active', "valid_from" timestamptz(3) not null, "valid_to" timestamptz(3) null, "created_by" text not null, "revoked_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "proxy_pkey" primary key ("sid"));`);
    this.addSql(`create index "proxy_principal_dr_id_index" on "proxy" ("principal_dr_id");`);
    this.addSql(`create index "proxy_target_dr_id_index" on "proxy" ("target_dr_id");`);

    this.addSql(`create table "public_key_history" ("sid" text not null, "entity_type" text not null, "entity_id" text not null, "version" bigint not null, "public_key" text not null, "valid_from" timestamptz(3) not null, "valid_to" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "public_key_history_pkey" primary key ("sid"));`);
    this.addSql(`create index "public_key_history_entity_type_index" on "public_key_history" ("entity_type");`);
    this.addSql(`create index "public_key_history_entity_id_index" on "public_key_history" ("entity_id");`);
    this.addSql(`alter table "public_key_history" add constraint "public_key_history_entity_type_entity_id_version_unique" unique ("entity_type", "entity_id", "version");`);

    this.addSql(`create table "rate_limit_counter" ("sid" text not null, "bucket" text not null, "window_start" timestamptz(3) not null, "count" bigint not null default 0, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "rate_limit_counter_pkey" primary key ("sid"));`);
    this.addSql(`alter table "rate_limit_counter" add constraint "rate_limit_counter_bucket_unique" unique ("bucket");`);

    this.addSql(`create table "registration_contract" ("sid" text not null, "category_key" text not null, "category" text null, "version" text not null, "title" text not null, "content" text not null, "content_hash" text not null, "required_for" text[] not null, "company_types" text[] not null, "is_active" boolean not null default true, "effective_from" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "registration_contract_pkey" primary key ("sid"));`);
    this.addSql(`create index "registration_contract_category_index" on "registration_contract" ("category");`);
    this.addSql(`create index "registration_contract_title_index" on "registration_contract" ("title");`);
    this.addSql(`alter table "registration_contract" add constraint "registration_contract_category_key_unique" unique ("category_key");`);

    this.addSql(`create table "registration_flow" ("sid" text not null, "user_id" text not null, "entity_type" text not null, "status" text not null default 'identity_pending', "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "registration_flow_pkey" primary key ("sid"));`);
    this.addSql(`create index "registration_flow_user_id_index" on "registration_flow" ("user_id");`);
    this.addSql(`alter table "registration_flow" add constraint "registration_flow_user_id_entity_type_unique" unique ("user_id", "entity_type");`);

    this.addSql(`create table "registration_request" ("sid" text not null, "partner_id" text not null, "request_type" text not null, "client_email" text not null, "client_name" text not null, "kyc_session_id" text null, "payment_id" text null, "signed_contract_ids" text[] not null, "reseller_signature" text not null, "status" text not null default 'pending', "reviewed_by" text null, "reviewed_at" timestamptz(3) null, "admin_signature" text null, "rejection_reason" text null, "info_request_message" text null, "created_entity_id" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "registration_request_pkey" primary key ("sid"));`);
    this.addSql(`create index "registration_request_partner_id_index" on "registration_request" ("partner_id");`);
    this.addSql(`create index "registration_request_client_email_index" on "registration_request" ("client_email");`);
    this.addSql(`create index "registration_request_status_index" on "registration_request" ("status");`);

    this.addSql(`create table "resolution" ("sid" text not null, "company_id" text not null, "proposal_id" text null, "resolution_number" text not null, "kind" text not null, "title" text not null, "content" text not null, "votes_for" double precision not null default 0, "votes_against" double precision not null default 0, "votes_abstain" double precision not null default 0, "executed_by" text not null, "executed_at" timestamptz(3) not null, "notes" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "resolution_pkey" primary key ("sid"));`);
    this.addSql(`create index "resolution_company_id_index" on "resolution" ("company_id");`);
    this.addSql(`create index "resolution_resolution_number_index" on "resolution" ("resolution_number");`);
    this.addSql(`alter table "resolution" add constraint "resolution_proposal_id_unique" unique ("proposal_id");`);
    this.addSql(`alter table "resolution" add constraint "resolution_company_id_resolution_number_unique" unique ("company_id", "resolution_number");`);

    this.addSql(`create table "session" ("sid" text not null, "user_id" text not null, "token_hash" text not null, "refresh_token_hash" text not null, "family_id" text not null, "expires_at" timestamptz(3) not null, "refresh_expires_at" timestamptz(3) not null, "revoked_at" timestamptz(3) null, "replaced_by" text null, "user_agent" text null, "ip_address" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "session_pkey" primary key ("sid"));`);
    this.addSql(`create index "session_user_id_index" on "session" ("user_id");`);
    this.addSql(`create index "session_family_id_index" on "session" ("family_id");`);
    this.addSql(`alter table "session" add constraint "session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`alter table "session" add constraint "session_refresh_token_hash_unique" unique ("refresh_token_hash");`);

    this.addSql(`create table "shareholder_invite" ("sid" text not null, "company_id" text not null, "inviter_id" text not null, "invitee_email" text not null, "proposed_units" double precision not null, "message" text null, "token_hash" text not null, "status" text not null default 'pending', "resident_id" text null, "expires_at" timestamptz(3) not null, "responded_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "shareholder_invite_pkey" primary key ("sid"));`);
    this.addSql(`create index "shareholder_invite_company_id_index" on "shareholder_invite" ("company_id");`);
    this.addSql(`create index "shareholder_invite_invitee_email_index" on "shareholder_invite" ("invitee_email");`);
    this.addSql(`alter table "shareholder_invite" add constraint "shareholder_invite_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "share_transfer" ("sid" text not null, "company_id" text not null, "from_resident_id" text not null, "to_resident_id" text not null, "units" double precision not null, "reason" text null, "status" text not null default 'pending', "transfer_hash" text not null, "to_signature" text null, "approved_at" timestamptz(3) null, "completed_at" timestamptz(3) null, "cancelled_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "share_transfer_pkey" primary key ("sid"));`);
    this.addSql(`create index "share_transfer_company_id_index" on "share_transfer" ("company_id");`);
    this.addSql(`create index "share_transfer_from_resident_id_index" on "share_transfer" ("from_resident_id");`);
    this.addSql(`create index "share_transfer_to_resident_id_index" on "share_transfer" ("to_resident_id");`);
    this.addSql(`create index "share_transfer_status_index" on "share_transfer" ("status");`);

    this.addSql(`create table "tax_document" ("sid" text not null, "filing_id" text not null, "company_id" text not null, "document_type" text not null, "title" text not null, "content" text not null, "content_hash" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "tax_document_pkey" primary key ("sid"));`);
    this.addSql(`create index "tax_document_filing_id_index" on "tax_document" ("filing_id");`);
    this.addSql(`create index "tax_document_company_id_index" on "tax_document" ("company_id");`);

    this.addSql(`create table "tax_filing" ("sid" text not null, "company_id" text not null, "filing_type" text not null, "period_start" timestamptz(3) not null, "period_end" timestamptz(3) not null, "status" text not null default 'draft', "currency" text not null default 'USD', "gross_revenue" double precision not null default 0, "cost_of_goods_sold" double precision not null default 0, "operating_expenses" double precision not null default 0, "taxable_income" double precision not null default 0, "tax_rate" double precision not null default 0, "tax_due" double precision not null default 0, "due_date" timestamptz(3) not null, "submitted_by" text null, "submitted_at" timestamptz(3) null, "reference_number" text null, "rejection_reason" text null, "amends_filing_id" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "tax_filing_pkey" primary key ("sid"));`);
    this.addSql(`create index "tax_filing_company_id_index" on "tax_filing" ("company_id");`);
    this.addSql(`create index "tax_filing_status_index" on "tax_filing" ("status");`);

    this.addSql(`create table "treasury_account" ("sid" text not null, "owner_type" text not null, "owner_id" text not null, "kind" text not null, "name" text not null, "currency" text not null, "balance" double precision not null default 0, "is_active" boolean not null default true, "network" text null, "address" text null, "bank_name" text null, "account_number" text null, "iban" text null, "swift" text null, "approval_threshold" double precision not null default 0, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "treasury_account_pkey" primary key ("sid"));`);
    this.addSql(`create index "treasury_account_owner_type_index" on "treasury_account" ("owner_type");`);
    this.addSql(`create index "treasury_account_owner_id_index" on "treasury_account" ("owner_id");`);

    this.addSql(`create table "treasury_transaction" ("sid" text not null, "account_id" text not null, "owner_type" text not null, "owner_id" text not null, "tx_type" text not null, "amount" double precision not null, "currency" text not null, "balance_after" double precision not null, "description" text not null, "reference" text null, "counterparty" text null, "fund_transfer_id" text null, "exchange_id" text null, "transaction_hash" text null, "status" text not null default 'pending', "confirmed_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "treasury_transaction_pkey" primary key ("sid"));`);
    this.addSql(`create index "treasury_transaction_account_id_index" on "treasury_transaction" ("account_id");`);
    this.addSql(`create index "treasury_transaction_owner_id_index" on "treasury_transaction" ("owner_id");`);
    this.addSql(`create index "treasury_transaction_fund_transfer_id_index" on "treasury_transaction" ("fund_transfer_id");`);
    this.addSql(`create index "treasury_transaction_exchange_id_index" on "treasury_transaction" ("exchange_id");`);

    this.addSql(`create table "user" ("sid" text not null, "email" text not null, "password_hash" text not null, "first_name" text null, "last_name" text null, "email_verified" boolean not null default false, "roles" text[] not null, "is_suspended" boolean not null default false, "suspended_at" timestamptz(3) null, "totp_secret" text null, "totp_enabled" boolean not null default false, "totp_last_step" bigint null, "backup_code_hashes" text[] not null, "partner_id" text null, "password_changed_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "user_pkey" primary key ("sid"));`);
    this.addSql(`create index "user_partner_id_index" on "user" ("partner_id");`);
    this.addSql(`alter table "user" add constraint "user_email_unique" unique ("email");`);

    this.addSql(`create table "user_audit_log" ("sid" text not null, "subject_id" text not null, "action" text not null, "target_ref" text not null, "target_type" text not null, "allowed" boolean not null, "context" text not null default '{}', "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "user_audit_log_pkey" primary key ("sid"));`);
    this.addSql(`create index "user_audit_log_subject_id_index" on "user_audit_log" ("subject_id");`);
    this.addSql(`create index "user_audit_log_action_index" on "user_audit_log" ("action");`);
    this.addSql(`create index "user_audit_log_target_ref_index" on "user_audit_log" ("target_ref");`);

    this.addSql(`create table "user_message" ("sid" text not null, "user_id" text not null, "title" text not null, "body" text not null, "message_type" text not null default 'notification', "category" text null, "action_url" text null, "action_label" text null, "is_read" boolean not null default false, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "user_message_pkey" primary key ("sid"));`);
    this.addSql(`create index "user_message_user_id_index" on "user_message" ("user_id");`);
    this.addSql(`create index "user_message_title_index" on "user_message" ("title");`);

    this.addSql(`create table "verification_link" ("sid" text not null, "user_id" text not null, "entity_type" text not null, "entity_id" text not null, "label" text null, "token_hash" text not null, "status" text not null default 'active', "single_use" boolean not null default false, "expires_at" timestamptz(3) not null, "use_count" bigint not null default 0, "last_used_at" timestamptz(3) null, "revoked_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "verification_link_pkey" primary key ("sid"));`);
    this.addSql(`create index "verification_link_user_id_index" on "verification_link" ("user_id");`);
    this.addSql(`create index "verification_link_entity_id_index" on "verification_link" ("entity_id");`);
    this.addSql(`alter table "verification_link" add constraint "verification_link_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "vote" ("sid" text not null, "proposal_id" text not null, "company_id" text not null, "voter_id" text not null, "vote_value" text not null, "voting_power" double precision not null, "comment" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "vote_pkey" primary key ("sid"));`);
    this.addSql(`create index "vote_proposal_id_index" on "vote" ("proposal_id");`);
    this.addSql(`create index "vote_company_id_index" on "vote" ("company_id");`);
    this.addSql(`create index "vote_voter_id_index" on "vote" ("voter_id");`);
    this.addSql(`alter table "vote" add constraint "vote_proposal_id_voter_id_unique" unique ("proposal_id", "voter_id");`);

    this.addSql(`create table "webhook_event" ("sid" text not null, "provider" text not null, "event_id" text not null, "received_at" timestamptz(3) not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "webhook_event_pkey" primary key ("sid"));`);
    this.addSql(`create index "webhook_event_provider_index" on "webhook_event" ("provider");`);
    this.addSql(`create index "webhook_event_event_id_index" on "webhook_event" ("event_id");`);
    this.addSql(`alter table "webhook_event" add constraint "webhook_event_provider_event_id_unique" unique ("provider", "event_id");`);

    this.addSql(`create table "zone_company" ("sid" text not null, "company_id" text not null, "user_id" text not null, "partner_id" text null, "venture_creator_id" text null, "owner_resident_id" text null, "name" text not null, "company_type" text not null, "voting_model" text not null default 'standard', "description" text not null default '', "registration_number" text not null default '', "tax_id" text not null default '', "address" jsonb not null, "shareholders" jsonb not null, "crypto_wallets" jsonb not null, "status" text not null default 'draft', "email" text null, "phone" text null, "website" text null, "logo_url" text null, "industry" text null, "public_key" text null, "encrypted_private_key" text null, "keypair_version" bigint not null default 0, "subscription_plan" text null, "subscription_start_date" timestamptz(3) null, "subscription_end_date" timestamptz(3) null, "auto_renewal" boolean not null default false, "setup_fee_paid" double precision not null default 0, "monthly_fee_rate" double precision not null default 0, "shareholder_fee_rate" double precision not null default 0, "prepaid_discount_applied" double precision not null default 0, "early_bird_applied" boolean not null default false, "draft_id" text null, "cardpsp_connected_account_id" text null, "mobilepay_merchant_id" text null, "payment_receiving_enabled" boolean not null default false, "due_process_executors" jsonb null, "external_id" text null, "external_id_counter" bigint null, "anonymity_enabled" boolean not null default false, "anonymity_changed_at" timestamptz(3) null, "license" jsonb null, "void_reason" text null, "voided_at" timestamptz(3) null, "voided_by" text null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "zone_company_pkey" primary key ("sid"));`);
    this.addSql(`create index "zone_company_user_id_index" on "zone_company" ("user_id");`);
    this.addSql(`create index "zone_company_partner_id_index" on "zone_company" ("partner_id");`);
    this.addSql(`create index "zone_company_owner_resident_id_index" on "zone_company" ("owner_resident_id");`);
    this.addSql(`create index "zone_company_name_index" on "zone_company" ("name");`);
    this.addSql(`create index "zone_company_description_index" on "zone_company" ("description");`);
    this.addSql(`create index "zone_company_email_index" on "zone_company" ("email");`);
    this.addSql(`alter table "zone_company" add constraint "zone_company_company_id_unique" unique ("company_id");`);
    this.addSql(`alter table "zone_company" add constraint "zone_company_external_id_unique" unique ("external_id");`);
    this.addSql(`alter table "zone_company" add constraint "zone_company_external_id_counter_unique" unique ("external_id_counter");`);

    this.addSql(`create table "zone_expense" ("sid" text not null, "fzc_id" text not null, "receipt_number" text not null, "vendor_name" text not null, "description" text not null, "amount" double precision not null, "currency" text not null, "category" text not null, "receipt_url" text null, "expense_date" timestamptz(3) not null, "status" text not null default 'draft', "approved_by" text null, "rejected_by" text null, "rejection_reason" text null, "decided_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "zone_expense_pkey" primary key ("sid"));`);
    this.addSql(`create index "zone_expense_fzc_id_index" on "zone_expense" ("fzc_id");`);
    this.addSql(`create index "zone_expense_receipt_number_index" on "zone_expense" ("receipt_number");`);
    this.addSql(`create index "zone_expense_vendor_name_index" on "zone_expense" ("vendor_name");`);
    this.addSql(`create index "zone_expense_description_index" on "zone_expense" ("description");`);

    this.addSql(`create table "zone_invoice" ("sid" text not null, "fzc_id" text not null default '', "reseller_invoice_id" text not null default '', "invoice_number" text not null, "amount" double precision not null, "currency" text not null, "tax_amount" double precision not null default 0, "description" text not null, "line_items" jsonb not null, "issue_date" timestamptz(3) not null, "due_date" timestamptz(3) not null, "status" text not null default 'draft', "sender_user_id" text null, "sender_entity_type" text null, "sender_entity_id" text null, "recipient_user_id" text null, "recipient_entity_type" text null, "recipient_entity_id" text null, "recipient_email" text null, "payment_instructions" jsonb null, "sender_message" text null, "payment_method" text null, "payment_reference" text null, "paid_at" timestamptz(3) null, "sent_at" timestamptz(3) null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null, constraint "zone_invoice_pkey" primary key ("sid"));`);
    this.addSql(`create index "zone_invoice_fzc_id_index" on "zone_invoice" ("fzc_id");`);
    this.addSql(`create index "zone_invoice_invoice_number_index" on "zone_invoice" ("invoice_number");`);
    this.addSql(`create index "zone_invoice_description_index" on "zone_invoice" ("description");`);
    this.addSql(`create index "zone_invoice_sender_user_id_index" on "zone_invoice" ("sender_user_id");`);
    this.addSql(`create index "zone_invoice_sender_entity_id_index" on "zone_invoice" ("sender_entity_id");`);
    this.addSql(`create index "zone_invoice_recipient_user_id_index" on "zone_invoice" ("recipient_user_id");`);
    this.addSql(`create index "zone_invoice_recipient_entity_id_index" on "zone_invoice" ("recipient_entity_id");`);
    this.addSql(`create index "zone_invoice_recipient_email_index" on "zone_invoice" ("recipient_email");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "admin_action" cascade;`);

    this.addSql(`drop table if exists "api_key" cascade;`);

    this.addSql(`drop table if exists "business_document" cascade;`);

    this.addSql(`drop table if exists "company_message" cascade;`);

    this.addSql(`drop table if exists "company_role" cascade;`);

    this.addSql(`drop table if exists "contract" cascade;`);

    this.addSql(`drop table if exists "contract_signature" cascade;`);

    this.addSql(`drop table if exists "contract_template" cascade;`);

    this.addSql(`drop table if exists "coop_event" cascade;`);

    this.addSql(`drop table if exists "counter" cascade;`);

    this.addSql(`drop table if exists "credit_balance" cascade;`);

    this.addSql(`drop table if exists "credit_transaction" cascade;`);

    this.addSql(`drop table if exists "digital_resident" cascade;`);

    this.addSql(`drop table if exists "dividend_distribution" cascade;`);

    this.addSql(`drop table if exists "dividend_payment" cascade;`);

    this.addSql(`drop table if exists "document_audience" cascade;`);

    this.addSql(`drop table if exists "email_outbox" cascade;`);

    this.addSql(`drop table if exists "email_verification_token" cascade;`);

    this.addSql(`drop table if exists "entity_draft" cascade;`);

    this.addSql(`drop table if exists "entity_invitation" cascade;`);

    this.addSql(`drop table if exists "exchange_transaction" cascade;`);

    this.addSql(`drop table if exists "external_company_registration" cascade;`);

    this.addSql(`drop table if exists "external_id_state" cascade;`);

    this.addSql(`drop table if exists "financial_report" cascade;`);

    this.addSql(`drop table if exists "frontend_error" cascade;`);

    this.addSql(`drop table if exists "fund_transfer" cascade;`);

    this.addSql(`drop table if exists "governance_action" cascade;`);

    this.addSql(`drop table if exists "invoice_payment_default" cascade;`);

    this.addSql(`drop table if exists "kyc_artifact_attestation" cascade;`);

    this.addSql(`drop table if exists "kyc_artifact_payload" cascade;`);

    this.addSql(`drop table if exists "kyc_personal_data" cascade;`);

    this.addSql(`drop table if exists "kyc_session" cascade;`);

    this.addSql(`drop table if exists "mcp_approval" cascade;`);

    this.addSql(`drop table if exists "mcp_call_log" cascade;`);

    this.addSql(`drop table if exists "mcp_usage_counter" cascade;`);

    this.addSql(`drop table if exists "mfa_challenge" cascade;`);

    this.addSql(`drop table if exists "mfa_recovery_session" cascade;`);

    this.addSql(`drop table if exists "partner_configuration" cascade;`);

    this.addSql(`drop table if exists "password_reset_token" cascade;`);

    this.addSql(`drop table if exists "payment" cascade;`);

    this.addSql(`drop table if exists "proposal" cascade;`);

    this.addSql(`drop table if exists "proxy" cascade;`);

    this.addSql(`drop table if exists "public_key_history" cascade;`);

    this.addSql(`drop table if exists "rate_limit_counter" cascade;`);

    this.addSql(`drop table if exists "registration_contract" cascade;`);

    this.addSql(`drop table if exists "registration_flow" cascade;`);

    this.addSql(`drop table if exists "registration_request" cascade;`);

    this.addSql(`drop table if exists "resolution" cascade;`);

    this.addSql(`drop table if exists "session" cascade;`);

    this.addSql(`drop table if exists "shareholder_invite" cascade;`);

    this.addSql(`drop table if exists "share_transfer" cascade;`);

    this.addSql(`drop table if exists "tax_document" cascade;`);

    this.addSql(`drop table if exists "tax_filing" cascade;`);

    this.addSql(`drop table if exists "treasury_account" cascade;`);

    this.addSql(`drop table if exists "treasury_transaction" cascade;`);

    this.addSql(`drop table if exists "user" cascade;`);

    this.addSql(`drop table if exists "user_audit_log" cascade;`);

    this.addSql(`drop table if exists "user_message" cascade;`);

    this.addSql(`drop table if exists "verification_link" cascade;`);

    this.addSql(`drop table if exists "vote" cascade;`);

    this.addSql(`drop table if exists "webhook_event" cascade;`);

    this.addSql(`drop table if exists "zone_company" cascade;`);

    this.addSql(`drop table if exists "zone_expense" cascade;`);

    this.addSql(`drop table if exists "zone_invoice" cascade;`);
  }

}

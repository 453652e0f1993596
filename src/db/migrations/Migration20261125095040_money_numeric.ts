import { Migration } from '@mikro-orm/migrations';

export class Migration20261125095040_money_numeric extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "api_key" alter column "max_transaction_amount" type numeric(18,2) using ("max_transaction_amount"::numeric(18,2));`);
    this.addSql(`alter table "api_key" alter column "daily_spending_limit" type numeric(18,2) using ("daily_spending_limit"::numeric(18,2));`);
    this.addSql(`alter table "api_key" alter column "monthly_spending_limit" type numeric(18,2) using ("monthly_spending_limit"::numeric(18,2));`);
    this.addSql(`alter table "api_key" alter column "approval_threshold" type numeric(18,2) using ("approval_threshold"::numeric(18,2));`);

    this.addSql(`alter table "contract" alter column "total_value" type numeric(18,2) using ("total_value"::numeric(18,2));`);

    this.addSql(`alter table "credit_balance" alter column "balance" type numeric(18,2) using ("balance"::numeric(18,2));`);
    this.addSql(`alter table "credit_balance" alter column "lifetime_earned" type numeric(18,2) using ("lifetime_earned"::numeric(18,2));`);
    this.addSql(`alter table "credit_balance" alter column "lifetime_spent" type numeric(18,2) using ("lifetime_spent"::numeric(18,2));`);
    this.addSql(`alter table "credit_balance" alter column "auto_topup_amount" type numeric(18,2) using ("auto_topup_amount"::numeric(18,2));`);
    this.addSql(`alter table "credit_balance" alter column "auto_topup_threshold" type numeric(18,2) using ("auto_topup_threshold"::numeric(18,2));`);

    this.addSql(`alter table "credit_transaction" alter column "amount" type numeric(18,2) using ("amount"::numeric(18,2));`);
    this.addSql(`alter table "credit_transaction" alter column "balance_after" type numeric(18,2) using ("balance_after"::numeric(18,2));`);

    this.addSql(`alter table "dividend_distribution" alter column "total_amount" type numeric(18,2) using ("total_amount"::numeric(18,2));`);

    this.addSql(`alter table "dividend_payment" alter column "ownership_percentage" type numeric(9,6) using ("ownership_percentage"::numeric(9,6));`);
    this.addSql(`alter table "dividend_payment" alter column "amount" type numeric(18,2) using ("amount"::numeric(18,2));`);

    this.addSql(`alter table "exchange_transaction" alter column "from_amount" type numeric(18,2) using ("from_amount"::numeric(18,2));`);
    this.addSql(`alter table "exchange_transaction" alter column "to_amount" type numeric(18,2) using ("to_amount"::numeric(18,2));`);
    this.addSql(`alter table "exchange_transaction" alter column "exchange_rate" type numeric(20,10) using ("exchange_rate"::numeric(20,10));`);
    this.addSql(`alter table "exchange_transaction" alter column "fee_percentage" type numeric(9,6) using ("fee_percentage"::numeric(9,6));`);
    this.addSql(`alter table "exchange_transaction" alter column "fee_amount" type numeric(18,2) using ("fee_amount"::numeric(18,2));`);

    this.addSql(`alter table "fund_transfer" alter column "amount" type numeric(18,2) using ("amount"::numeric(18,2));`);
    this.addSql(`alter table "fund_transfer" alter column "approval_threshold" type numeric(18,2) using ("approval_threshold"::numeric(18,2));`);
    this.addSql(`alter table "fund_transfer" alter column "fee_amount" type numeric(18,2) using ("fee_amount"::numeric(18,2));`);

    this.addSql(`alter table "mcp_approval" alter column "amount" type numeric(18,2) using ("amount"::numeric(18,2));`);

    this.addSql(`alter table "mcp_call_log" alter column "amount" type numeric(18,2) using ("amount"::numeric(18,2));`);
    this.addSql(`alter table "mcp_call_log" alter column "amount_eur" type numeric(18,2) using ("amount_eur"::numeric(18,2));`);

    this.addSql(`alter table "mcp_usage_counter" alter column "amount_eur" type numeric(18,2) using ("amount_eur"::numeric(18,2));`);

    this.addSql(`alter table "payment" alter column "amount" type numeric(18,2) using ("amount"::numeric(18,2));`);

    this.addSql(`alter table "tax_filing" alter column "gross_revenue" type numeric(18,2) using ("gross_revenue"::numeric(18,2));`);
    this.addSql(`alter table "tax_filing" alter column "cost_of_goods_sold" type numeric(18,2) using ("cost_of_goods_sold"::numeric(18,2));`);
    this.addSql(`alter table "tax_filing" alter column "operating_expenses" type numeric(18,2) using ("operating_expenses"::numeric(18,2));`);
    this.addSql(`alter table "tax_filing" alter column "taxable_income" type numeric(18,2) using ("taxable_income"::numeric(18,2));`);
    this.addSql(`alter table "tax_filing" alter column "tax_rate" type numeric(9,6) using ("tax_rate"::numeric(9,6));`);
    this.addSql(`alter table "tax_filing" alter column "tax_due" type numeric(18,2) using ("tax_due"::numeric(18,2));`);

    this.addSql(`alter table "treasury_account" alter column "balance" type numeric(18,2) using ("balance"::numeric(18,2));`);
    this.addSql(`alter table "treasury_account" alter column "approval_threshold" type numeric(18,2) using ("approval_threshold"::numeric(18,2));`);

    this.addSql(`alter table "treasury_transaction" alter column "amount" type numeric(18,2) using ("amount"::numeric(18,2));`);
    this.addSql(`alter table "treasury_transaction" alter column "balance_after" type numeric(18,2) using ("balance_after"::numeric(18,2));`);

    this.addSql(`alter table "zone_company" alter column "setup_fee_paid" type numeric(18,2) using ("setup_fee_paid"::numeric(18,2));`);
    this.addSql(`alter table "zone_company" alter column "monthly_fee_rate" type numeric(18,2) using ("monthly_fee_rate"::numeric(18,2));`);
    this.addSql(`alter table "zone_company" alter column "shareholder_fee_rate" type numeric(18,2) using ("shareholder_fee_rate"::numeric(18,2));`);
    this.addSql(`alter table "zone_company" alter column "prepaid_discount_applied" type numeric(5,4) using ("prepaid_discount_applied"::numeric(5,4));`);

    this.addSql(`alter table "zone_expense" alter column "amount" type numeric(18,2) using ("amount"::numeric(18,2));`);

    this.addSql(`alter table "zone_invoice" alter column "amount" type numeric(18,2) using ("amount"::numeric(18,2));`);
    this.addSql(`alter table "zone_invoice" alter column "tax_amount" type numeric(18,2) using ("tax_amount"::numeric(18,2));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "api_key" alter column "max_transaction_amount" type float8 using ("max_transaction_amount"::float8);`);
    this.addSql(`alter table "api_key" alter column "daily_spending_limit" type float8 using ("daily_spending_limit"::float8);`);
    this.addSql(`alter table "api_key" alter column "monthly_spending_limit" type float8 using ("monthly_spending_limit"::float8);`);
    this.addSql(`alter table "api_key" alter column "approval_threshold" type float8 using ("approval_threshold"::float8);`);

    this.addSql(`alter table "contract" alter column "total_value" type float8 using ("total_value"::float8);`);

    this.addSql(`alter table "credit_balance" alter column "balance" type float8 using ("balance"::float8);`);
    this.addSql(`alter table "credit_balance" alter column "lifetime_earned" type float8 using ("lifetime_earned"::float8);`);
    this.addSql(`alter table "credit_balance" alter column "lifetime_spent" type float8 using ("lifetime_spent"::float8);`);
    this.addSql(`alter table "credit_balance" alter column "auto_topup_amount" type float8 using ("auto_topup_amount"::float8);`);
    this.addSql(`alter table "credit_balance" alter column "auto_topup_threshold" type float8 using ("auto_topup_threshold"::float8);`);

    this.addSql(`alter table "credit_transaction" alter column "amount" type float8 using ("amount"::float8);`);
    this.addSql(`alter table "credit_transaction" alter column "balance_after" type float8 using ("balance_after"::float8);`);

    this.addSql(`alter table "dividend_distribution" alter column "total_amount" type float8 using ("total_amount"::float8);`);

    this.addSql(`alter table "dividend_payment" alter column "ownership_percentage" type float8 using ("ownership_percentage"::float8);`);
    this.addSql(`alter table "dividend_payment" alter column "amount" type float8 using ("amount"::float8);`);

    this.addSql(`alter table "exchange_transaction" alter column "from_amount" type float8 using ("from_amount"::float8);`);
    this.addSql(`alter table "exchange_transaction" alter column "to_amount" type float8 using ("to_amount"::float8);`);
    this.addSql(`alter table "exchange_transaction" alter column "exchange_rate" type float8 using ("exchange_rate"::float8);`);
    this.addSql(`alter table "exchange_transaction" alter column "fee_percentage" type float8 using ("fee_percentage"::float8);`);
    this.addSql(`alter table "exchange_transaction" alter column "fee_amount" type float8 using ("fee_amount"::float8);`);

    this.addSql(`alter table "fund_transfer" alter column "amount" type float8 using ("amount"::float8);`);
    this.addSql(`alter table "fund_transfer" alter column "approval_threshold" type float8 using ("approval_threshold"::float8);`);
    this.addSql(`alter table "fund_transfer" alter column "fee_amount" type float8 using ("fee_amount"::float8);`);

    this.addSql(`alter table "mcp_approval" alter column "amount" type float8 using ("amount"::float8);`);

    this.addSql(`alter table "mcp_call_log" alter column "amount" type float8 using ("amount"::float8);`);
    this.addSql(`alter table "mcp_call_log" alter column "amount_eur" type float8 using ("amount_eur"::float8);`);

    this.addSql(`alter table "mcp_usage_counter" alter column "amount_eur" type float8 using ("amount_eur"::float8);`);

    this.addSql(`alter table "payment" alter column "amount" type float8 using ("amount"::float8);`);

    this.addSql(`alter table "tax_filing" alter column "gross_revenue" type float8 using ("gross_revenue"::float8);`);
    this.addSql(`alter table "tax_filing" alter column "cost_of_goods_sold" type float8 using ("cost_of_goods_sold"::float8);`);
    this.addSql(`alter table "tax_filing" alter column "operating_expenses" type float8 using ("operating_expenses"::float8);`);
    this.addSql(`alter table "tax_filing" alter column "taxable_income" type float8 using ("taxable_income"::float8);`);
    this.addSql(`alter table "tax_filing" alter column "tax_rate" type float8 using ("tax_rate"::float8);`);
    this.addSql(`alter table "tax_filing" alter column "tax_due" type float8 using ("tax_due"::float8);`);

    this.addSql(`alter table "treasury_account" alter column "balance" type float8 using ("balance"::float8);`);
    this.addSql(`alter table "treasury_account" alter column "approval_threshold" type float8 using ("approval_threshold"::float8);`);

    this.addSql(`alter table "treasury_transaction" alter column "amount" type float8 using ("amount"::float8);`);
    this.addSql(`alter table "treasury_transaction" alter column "balance_after" type float8 using ("balance_after"::float8);`);

    this.addSql(`alter table "zone_company" alter column "setup_fee_paid" type float8 using ("setup_fee_paid"::float8);`);
    this.addSql(`alter table "zone_company" alter column "monthly_fee_rate" type float8 using ("monthly_fee_rate"::float8);`);
    this.addSql(`alter table "zone_company" alter column "shareholder_fee_rate" type float8 using ("shareholder_fee_rate"::float8);`);
    this.addSql(`alter table "zone_company" alter column "prepaid_discount_applied" type float8 using ("prepaid_discount_applied"::float8);`);

    this.addSql(`alter table "zone_expense" alter column "amount" type float8 using ("amount"::float8);`);

    this.addSql(`alter table "zone_invoice" alter column "amount" type float8 using ("amount"::float8);`);
    this.addSql(`alter table "zone_invoice" alter column "tax_amount" type float8 using ("tax_amount"::float8);`);
  }

}

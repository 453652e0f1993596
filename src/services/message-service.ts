import type { MessageServiceHandlers } from "../../generated/handlers/index.ts";
import type { RpcContext } from "../rpc/context.ts";
import { RpcError } from "../rpc/errors.ts";

/** MessageService: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */
export const messageService: MessageServiceHandlers<RpcContext> = {
  async listUserMessages(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.list_user_messages");
  },
  async getUserMessage(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.get_user_message");
  },
  async getUnreadCount(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.get_unread_count");
  },
  async markAsRead(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.mark_as_read");
  },
  async markAsUnread(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.mark_as_unread");
  },
  async markAllRead(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.mark_all_read");
  },
  async markAllUnread(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.mark_all_unread");
  },
  async deleteMessage(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.delete_message");
  },
  async createSystemMessage(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.create_system_message");
  },
  async listCompanyMessages(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.list_company_messages");
  },
  async createCompanyMessage(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.create_company_message");
  },
  async markCompanyRead(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.mark_company_read");
  },
  async markCompanyUnread(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.mark_company_unread");
  },
  async markAllCompanyRead(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.mark_all_company_read");
  },
  async markAllCompanyUnread(_ctx, _params) {
    throw RpcError.notImplemented("messageservice.mark_all_company_unread");
  },
};

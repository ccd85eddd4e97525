// A model plugin as the host sees it: metadata read from its JSON document, instances through
// the C table.
#include <liesim/host/model_type.hpp>
#include <liesim/host/plugin_context.hpp>

#include "metadata.hpp"
#include "table_checks.hpp"

#include <fmt/format.h>

namespace liesim {

ModelTypeView::ModelTypeView(const liesim_plugin* plugin, const std::string& metadata, std::shared_ptr<const void> library,
                     std::string file)
    : api_(plugin->model), name_(plugin->name), file_(std::move(file)), library_(std::move(library)) {
  const auto j = parse_metadata(metadata, name_);
  summary_ = metadata_text(j, "summary", name_);
  conventions_ = metadata_text(j, "conventions", name_);
  parameters_ = metadata_specs(j, "parameters", name_);
}

ModelView* ModelTypeView::create(const Settings& parameters, std::string& error) const {
  auto context = std::make_unique<PluginContext>(fmt::format("model '{}'", name_));
  const GivenSettings given(parameters);
  liesim_model* instance = nullptr;
  const int s = api_->create(context.get(), static_cast<int32_t>(given.keys.size()), given.keys.data(), given.values.data(),
                             &instance);
  if (s != LIESIM_OK || instance == nullptr) {
    error = context->take_error("the plugin created no instance");
    return nullptr;
  }
  // What the instance states is checked before anything is sized from it.
  liesim_model_info info{};
  info.size = sizeof info;
  api_->info(instance, &info);
  try {
    tables::check_model_info(api_, instance, info);
  } catch (const Error& e) {
    api_->destroy(instance);
    throw PluginFault(fmt::format("model '{}'{}: {}", name_, file_.empty() ? std::string() : fmt::format(" (plugin {})", file_), e.what()));
  }
  PluginContext* ctx = context.release();
  const liesim_model_api* api = api_;
  std::shared_ptr<const void> library = library_;
  return new ModelView(api, instance, &plugin_context_last_error, ctx, [api, instance, ctx, library] {
    api->destroy(instance);
    delete ctx;
  });
}

}  // namespace liesim

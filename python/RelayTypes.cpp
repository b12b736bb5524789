//===- RelayTypes.cpp - Python classes of the relay dialect's types ------===//
//
// `relay_mlir.dialects.relay.{IncompleteType, FuncType, RefType, TypeVarType,
// ADTType}`: subclasses of `relay_mlir.ir.Type` built on the C API in
// relay-c/Relay.h (as mlir/examples/standalone binds its custom type). Each
// class registers its TypeID, so every `Value.type` / accessor that returns a
// relay type already returns an instance of its class.
//
//===----------------------------------------------------------------------===//
#include "relay-c/Relay.h"

#include "mlir-c/IR.h"
#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace nb = nanobind;
using mlir::python::nanobind_adaptors::mlir_type_subclass;

static std::string toString(MlirStringRef s) {
  return std::string(s.data, s.length);
}

NB_MODULE(_relayTypes, m) {
  m.doc() = "Python classes of the relay dialect's types (and the scan for "
            "text MLIR's parser would abort on).";

  m.def(
      "find_parser_hazard",
      [](const std::string &source)
          -> std::optional<std::pair<intptr_t, std::string>> {
        std::string message;
        intptr_t offset = relayFindParserHazard(
            mlirStringRefCreate(source.data(), source.size()),
            [](MlirStringRef s, void *user) {
              static_cast<std::string *>(user)->append(s.data, s.length);
            },
            &message);
        if (offset < 0)
          return std::nullopt;
        return std::make_pair(offset, message);
      },
      nb::arg("source"),
      "(byte offset, message) of the first text in `source` MLIR's parser "
      "would abort on (relay/Utils/ParserHazards.h), or None.");

  mlir_type_subclass(m, "IncompleteType", relayTypeIsIncomplete,
                     relayIncompleteTypeGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, MlirContext ctx) {
            return cls(relayIncompleteTypeGet(ctx));
          },
          nb::arg("cls"), nb::arg("context").none() = nb::none(),
          "`!relay.incomplete`: a type left to relay-infer-type.")
      .def_property_readonly(
          "id", [](MlirType self) { return relayIncompleteTypeGetId(self); },
          "The inference variable number (0 outside relay-infer-type).");

  mlir_type_subclass(m, "FuncType", relayTypeIsFn, relayFnTypeGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::vector<MlirType> &inputs,
             MlirType result, MlirContext ctx) {
            return cls(
                relayFnTypeGet(ctx, inputs.size(), inputs.data(), result));
          },
          nb::arg("cls"), nb::arg("inputs"), nb::arg("result"),
          nb::arg("context").none() = nb::none(),
          "`!relay.fn<(inputs...) -> result>`.")
      .def_property_readonly(
          "inputs",
          [](MlirType self) {
            std::vector<MlirType> out;
            for (intptr_t i = 0, e = relayFnTypeGetNumInputs(self); i < e; ++i)
              out.push_back(relayFnTypeGetInput(self, i));
            return out;
          },
          "The parameter types.")
      .def_property_readonly(
          "result", [](MlirType self) { return relayFnTypeGetResult(self); },
          "The result type.");

  mlir_type_subclass(m, "RefType", relayTypeIsRef, relayRefTypeGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, MlirType element) {
            return cls(relayRefTypeGet(element));
          },
          nb::arg("cls"), nb::arg("element_type"),
          "`!relay.ref<element_type>`.")
      .def_property_readonly(
          "element_type",
          [](MlirType self) { return relayRefTypeGetElementType(self); },
          "The type of the referenced value.");

  mlir_type_subclass(m, "TypeVarType", relayTypeIsTypeVar,
                     relayTypeVarTypeGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::string &name, MlirContext ctx) {
            return cls(relayTypeVarTypeGet(
                ctx, mlirStringRefCreate(name.data(), name.size())));
          },
          nb::arg("cls"), nb::arg("name"),
          nb::arg("context").none() = nb::none(),
          "`!relay.tvar<\"name\">`: an ADT type parameter.")
      .def_property_readonly(
          "name",
          [](MlirType self) { return toString(relayTypeVarTypeGetName(self)); },
          "The parameter's name.");

  mlir_type_subclass(m, "ADTType", relayTypeIsADT, relayADTTypeGetTypeID)
      .def_classmethod(
          "get",
          [](nb::object cls, const std::string &name,
             const std::vector<MlirType> &args, MlirContext ctx) {
            return cls(relayADTTypeGet(
                ctx, mlirStringRefCreate(name.data(), name.size()), args.size(),
                args.data()));
          },
          nb::arg("cls"), nb::arg("name"), nb::arg("args"),
          nb::arg("context").none() = nb::none(),
          "`!relay.adt<@name, args...>`: an ADT applied to type arguments.")
      .def_property_readonly(
          "name",
          [](MlirType self) { return toString(relayADTTypeGetName(self)); },
          "The ADT's symbol name (without `@`).")
      .def_property_readonly(
          "args",
          [](MlirType self) {
            std::vector<MlirType> out;
            for (intptr_t i = 0, e = relayADTTypeGetNumArgs(self); i < e; ++i)
              out.push_back(relayADTTypeGetArg(self, i));
            return out;
          },
          "The type arguments.");
}

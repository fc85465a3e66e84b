//! The instances of a script: the current one, those named `$id`, those
//! registered for import (`spectest` from the start), and the binding of a
//! module's imports to their exports.

use super::script::Options;
use std::collections::HashMap;
use symplay_engine::exec::store::{Extern, Imports, InstanceId, Store};
use symplay_engine::memory::Split;
use symplay_wasm::{GlobalInit, ImportName, Module, Profile};

/// The `spectest` module of the reference interpreter; its print functions
/// do nothing.
const SPECTEST: &str = r#"(module
  (global (export "global_i32") i32 (i32.const 666))
  (global (export "global_i64") i64 (i64.const 666))
  (global (export "global_f32") f32 (f32.const 666.6))
  (global (export "global_f64") f64 (f64.const 666.6))
  (table (export "table") 10 20 funcref)
  (memory (export "memory") 1 2)
  (func (export "print"))
  (func (export "print_i32") (param i32))
  (func (export "print_i64") (param i64))
  (func (export "print_f32") (param f32))
  (func (export "print_f64") (param f64))
  (func (export "print_i32_f32") (param i32 f32))
  (func (export "print_f64_f64") (param f64 f64)))"#;

pub struct Registry {
    pub store: Store,
    current: Option<InstanceId>,
    named: HashMap<String, InstanceId>,
    registered: HashMap<String, InstanceId>,
}

impl Registry {
    pub fn new(options: &Options) -> Result<Registry, String> {
        let mut store = Store::new();
        store.max_instructions = options.max_instructions;
        store.split = options.split.then(Split::default);
        store.merge = options.merge;
        let spectest = symplay_wasm::load_with(SPECTEST.as_bytes(), Profile::Wasm1)
            .map_err(|e| format!("spectest: {e}"))?;
        let spectest = store
            .instantiate(spectest, &Imports::default())
            .map_err(|e| format!("spectest: {e}"))?;
        Ok(Registry {
            store,
            current: None,
            named: HashMap::new(),
            registered: HashMap::from([("spectest".to_string(), spectest)]),
        })
    }

    /// The instance `$id`, or the current one.
    pub fn instance(&self, id: Option<&str>) -> Result<InstanceId, String> {
        match id {
            Some(id) => self
                .named
                .get(id)
                .copied()
                .ok_or_else(|| format!("unknown module ${id}")),
            None => self.current.ok_or_else(|| "no module instantiated".into()),
        }
    }

    /// Makes `instance` (possibly `None`, after a failed module) current,
    /// and names it `$id`.
    pub fn set_current(&mut self, instance: Option<InstanceId>, id: Option<&str>) {
        self.current = instance;
        if let (Some(instance), Some(id)) = (instance, id) {
            self.named.insert(id.to_string(), instance);
        }
    }

    pub fn register(&mut self, name: &str, instance: InstanceId) {
        self.registered.insert(name.to_string(), instance);
    }

    /// Binds every import of `module` to the export it names.
    pub fn imports(&self, module: &Module) -> Result<Imports, String> {
        let mut imports = Imports::default();
        for (_, import) in module.func_imports() {
            match self.resolve(&import.name)? {
                Extern::Func(f) => imports.funcs.push(f),
                _ => return Err(incompatible(&import.name)),
            }
        }
        for g in &module.globals {
            if let GlobalInit::Import(name) = &g.init {
                match self.resolve(name)? {
                    Extern::Global(a) => imports.globals.push(a),
                    _ => return Err(incompatible(name)),
                }
            }
        }
        for name in module.memories.iter().filter_map(|m| m.import.as_ref()) {
            match self.resolve(name)? {
                Extern::Memory(a) => imports.memories.push(a),
                _ => return Err(incompatible(name)),
            }
        }
        for name in module.tables.iter().filter_map(|t| t.import.as_ref()) {
            match self.resolve(name)? {
                Extern::Table(a) => imports.tables.push(a),
                _ => return Err(incompatible(name)),
            }
        }
        Ok(imports)
    }

    fn resolve(&self, name: &ImportName) -> Result<Extern, String> {
        self.registered
            .get(&name.module)
            .and_then(|&instance| self.store.export(instance, &name.name))
            .ok_or_else(|| format!("unknown import {name}"))
    }
}

fn incompatible(name: &ImportName) -> String {
    format!("incompatible import type for {name}")
}

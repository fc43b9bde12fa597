//! Name-value pairs in a fixed order, written as a JSON object in that order: the figures keep the
//! order of the benchmark's tables (RewardBench sections) and of the report (interval paths).

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;

/// Name-value pairs kept in a fixed order, serialised as a JSON object in that order.
#[derive(Debug, Clone, PartialEq)]
pub struct Ordered<V>(pub Vec<(String, V)>);

impl<V> Default for Ordered<V> {
    fn default() -> Self {
        Ordered(Vec::new())
    }
}

impl<V> Ordered<V> {
    /// The value under `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Ordered<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct OrderedVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for OrderedVisitor<V> {
            type Value = Ordered<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry()? {
                    out.push((k, v));
                }
                Ok(Ordered(out))
            }
        }
        d.deserialize_map(OrderedVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_keeps_its_order_through_json() {
        let o = Ordered(vec![
            ("Chat".to_string(), Some(0.5)),
            ("Chat Hard".to_string(), None),
            ("A".to_string(), Some(1.0)),
        ]);
        let json = serde_json::to_string(&o).unwrap();
        assert_eq!(json, r#"{"Chat":0.5,"Chat Hard":null,"A":1.0}"#);
        let back: Ordered<Option<f64>> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, o);
        assert_eq!(back.get("A"), Some(&Some(1.0)));
    }
}
